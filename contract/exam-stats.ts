// The admin's view of everyone's formal exam records in figures: GET /api/system/exam-stats.

/** Counts of a group of records. `pass_rate` is passed / records (0–1, 4 decimals; 0 without records). */
export interface RecordFigures {
  records: number;
  passed: number;
  pass_rate: number;
  /** Mean of score / total_score × 100 (2 decimals; 0 without records). */
  average_percent: number;
}

export interface PaperFigures extends RecordFigures {
  paper_id: number;
  /** The paper's current name. */
  paper_name: string;
}

export interface DepartmentFigures extends RecordFigures {
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
  overall: RecordFigures;
  by_paper: PaperFigures[];
  by_department: DepartmentFigures[];
  score_distribution: ScoreBucket[];
  trend: TrendPoint[];
}
