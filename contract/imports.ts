/** Bulk imports of users and questions from Excel (issue 25; docs/api/imports.md): dry run, row errors, atomic import. */
import type { ImportErrorCode } from './catalog.js';

export type BulkImportErrorCode =
  | ImportErrorCode
  /** The same username twice in the file (other_row names the first). */
  | 'duplicate_username'
  /** The username belongs to an existing user. */
  | 'username_taken'
  /** 角色 is neither employee/员工 nor admin/管理员. */
  | 'invalid_role'
  /** 题型 is none of single/单选, multiple/多选, true_false/判断. */
  | 'invalid_question_type'
  /** The answer names no option of the row, or the wrong number of them for the type. */
  | 'invalid_answer'
  /** The options are too few or repeat a key. */
  | 'invalid_options'
  /** 课程 names no course (by id or exact title). */
  | 'unknown_course'
  /** The cell shows a spreadsheet error (#DIV/0!, #N/A…), not a value. */
  | 'cell_error'
  /** The cell is a formula without a result in the file, or text typed as one (=…): never stored as a value. */
  | 'formula';

export interface BulkImportRowError {
  row: number;
  field?: string;
  code: BulkImportErrorCode;
  /** The problem in English (for logs and English readers); the renderer shows its code in the reader's language. */
  error: string;
  other_row?: number;
  /** The value the row had, where it helps (the unknown course, the taken username). */
  value?: string;
}

interface BulkImportReport {
  dry_run: boolean;
  total: number;
  valid: number;
  /** Rows written (0 on a dry run or when any row is invalid). */
  imported: number;
  errors: BulkImportRowError[];
}

/** A created user's initial password: in this answer only, never stored in clear or shown again. */
export interface InitialCredential {
  row: number;
  username: string;
  full_name: string;
  password: string;
}

export interface UserImportReport extends BulkImportReport {
  /** Departments and positions named by the file that do not exist yet: created by the import. */
  departments_created: string[];
  positions_created: string[];
  /** Empty on a dry run. */
  credentials: InitialCredential[];
}

export type QuestionImportReport = BulkImportReport;

/** A long users import's job (more than USER_IMPORT_JOB_ROWS rows): 202 `{job_id}`, then followed by its id. */
export type ImportJobStatus = 'running' | 'done' | 'failed';

export interface UserImportJobStarted {
  job_id: number;
}

export interface UserImportJob {
  id: number;
  status: ImportJobStatus;
  /** Users written so far, of `total` rows in the file. */
  processed: number;
  total: number;
  /**
   * At the end, the report the import answers with when it is short: on `done` its credentials to the admin who
   * started it, once (empty afterwards and for anyone else); on `failed` with the invalid rows, when that was why.
   */
  report: UserImportReport | null;
  /** Why a failed job failed (English, for logs); null otherwise. */
  error: string | null;
}

/** Files with more rows than this import as a job (a dry run never does). */
export const USER_IMPORT_JOB_ROWS = 500;
