/** Knowledge sources and retrieval (spec 2.2 Knowledge source / Knowledge chunk, part 3, 4.7). */

export type KnowledgeSourceStatus = 'pending' | 'approved' | 'rejected';

export interface KnowledgeSource {
  id: number;
  /** Path of the markdown file relative to the knowledge directory, with `/` separators. */
  file_path: string;
  title: string;
  domain: string;
  status: KnowledgeSourceStatus;
  reject_reason: string | null;
  /** sha256 (hex) of the file content as scanned. */
  content_sha256: string;
  /** What the last approve ingested; 0 while pending or rejected. */
  products: number;
  chunks: number;
  questions: number;
  scanned_at: string;
  reviewed_at: string | null;
  reviewed_by: number | null;
  created_at: string;
  updated_at: string;
}

/**
 * created (spec 4.7): a new or changed file, now a pending source (`change` says which); unchanged: same content,
 * nothing done; missing: a known source whose file is gone (nothing done); skipped: not read (see reason).
 * `updated` is never sent (V1.3 reports a changed file as `created`); it stays in the union only until the renderer's
 * status table drops it.
 */
export type KnowledgeScanStatus = 'created' | 'updated' | 'unchanged' | 'missing' | 'skipped';

/** For a `created` entry: a file never seen before, or a known source whose content changed (pending again). */
export type KnowledgeScanChange = 'new' | 'changed';

export interface KnowledgeScanResult {
  file_path: string;
  status: KnowledgeScanStatus;
  /** Present exactly when status is `created`. */
  change?: KnowledgeScanChange;
  title: string;
  /** The source concerned (absent for skipped files). */
  source_id?: number;
  reason?: string;
}

export interface KnowledgeScanResponse {
  results: KnowledgeScanResult[];
}

export type KnowledgeAuditAction = 'approve' | 'reject';

export interface KnowledgeAuditRequest {
  action: KnowledgeAuditAction;
  reject_reason?: string;
}

export interface KnowledgeApproveResult {
  status: 'approved';
  source_id: number;
  products: number;
  chunks: number;
  questions: number;
  /** What was ingested as written but deserves a look, e.g. a risk_level that names no level; only when there is some. */
  warnings?: KnowledgeFormatProblem[];
}

export interface KnowledgeRejectResult {
  status: 'rejected';
  source_id: number;
  reject_reason: string;
}

export type KnowledgeChunkSourceType = 'knowledge' | 'media';

/** One ranked search hit; score is higher for better matches and comparable only within one response. */
export interface KnowledgeSearchHit {
  id: number;
  content: string;
  score: number;
  source: { type: KnowledgeChunkSourceType; id: number; title: string };
}

/** Where a malformed knowledge file went wrong (details of a `knowledge.invalid_format` error). */
export interface KnowledgeFormatProblem {
  file_path: string;
  line: number;
  problem: string;
}

export const KnowledgeErrorCode = {
  invalidFormat: 'knowledge.invalid_format',
  notPending: 'knowledge.not_pending',
  fileChanged: 'knowledge.file_changed',
  fileMissing: 'knowledge.file_missing',
} as const;
