// The admin's view of everyone's formal exam records in figures: GET /api/system/exam-stats.

/** Counts of a group of records. `pass_rate` is passed / records (0–1, 4 decimals; 0 without records). */
export interface RecordFigures {
  records: number;
  passed: number;
  pass_rate: number;
  /** Mean of score / total_score × 100 (2 decimals; 0 without records). */
  average_percent: number;
}

/** The same records counted by person: `people` took the exam, `people_passed` passed it at least once. */
export interface PeopleFigures {
  people: number;
  people_passed: number;
  /** people_passed / people (0–1, 4 decimals; 0 without records). */
  people_pass_rate: number;
}

/** One active employee without a record of a paper (GET /api/system/exam-stats/not-taken). */
export interface NotTaken {
  user_id: number;
  username: string;
  full_name: string;
  department: string;
}

export interface PaperFigures extends RecordFigures, PeopleFigures {
  paper_id: number;
  /** The paper's current name. */
  paper_name: string;
}

export interface DepartmentFigures extends RecordFigures, PeopleFigures {
  /** The user's department now ('' for none). */
  department: string;
}

/** Records whose score is `from` % ≤ score / total < `to` % of the total (the last bucket includes 100 %). */
export interface ScoreBucket {
  from: number;
  to: number;
  count: number;
}

export interface TrendPoint extends RecordFigures {
  /** `YYYY-MM-DD` or `YYYY-MM` in the reader's time zone. */
  period: string;
}

export interface ExamStats {
  overall: RecordFigures & PeopleFigures;
  by_paper: PaperFigures[];
  by_department: DepartmentFigures[];
  score_distribution: ScoreBucket[];
  trend: TrendPoint[];
}
