import path from 'node:path';
import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import type { Storage } from '../storage/index.js';
import {
  KnowledgeErrorCode,
  type KnowledgeApproveResult,
  type KnowledgeFormatProblem,
  type KnowledgeRejectResult,
  type KnowledgeScanResponse,
  type KnowledgeScanResult,
  type KnowledgeSource,
} from '../../contract/knowledge.js';
import { AppError, notFound } from '../http/errors.js';
import { KnowledgeFormatError } from './blocks.js';
import { parseKnowledgeSource, readSourceMeta, type ParsedSource } from './format.js';
import { listMarkdownFiles, MAX_SOURCE_BYTES, readSourceFile, sha256 } from './source-files.js';
import { allSourceRows, isCentralSource, findSourceRow, insertPendingSource, markSourceChanged, recordCounts, recordReview, toSource, type ScannedFile, type SourceRow } from './sources.repository.js';
import { ingestSource } from './ingest.js';
import { replaceChunks } from './chunks.js';

/** The length of knowledge_sources.file_path. */
const MAX_PATH_LENGTH = 1000;

/** A file without a title of its own is named after the file. */
const fallbackTitle = (filePath: string): string => path.posix.basename(filePath).replace(/\.md$/i, '');

export async function getSource(db: Db, id: number): Promise<KnowledgeSource> {
  const row = await findSourceRow(db, id);
  if (!row) throw notFound('Knowledge source');
  return toSource(row);
}

async function readScannedFiles(storage: Storage): Promise<{ files: ScannedFile[]; skipped: KnowledgeScanResult[] }> {
  const files: ScannedFile[] = [];
  const skipped: KnowledgeScanResult[] = [];
  for (const found of await listMarkdownFiles(storage)) {
    const title = fallbackTitle(found.relativePath);
    const problem =
      found.size > MAX_SOURCE_BYTES ? `larger than ${MAX_SOURCE_BYTES / 1024 / 1024} MB`
      : found.relativePath.length > MAX_PATH_LENGTH ? `path longer than ${MAX_PATH_LENGTH} characters`
      : null;
    if (problem) {
      skipped.push({ file_path: found.relativePath, status: 'skipped', title, reason: problem });
      continue;
    }
    const file = await readSourceFile(storage, found.relativePath);
    if (file.state !== 'ok') continue; // removed (or grown) while scanning
    const content = file.content;
    files.push({ file_path: found.relativePath, ...readSourceMeta(content.toString('utf8'), title), content_sha256: sha256(content) });
  }
  return { files, skipped };
}

/**
 * One file found in the knowledge storage (by the scan, or written there by a knowledge-pack import) against its source, if
 * any: new → a pending source; changed → pending again, its chunks out of the search; unchanged → nothing done.
 */
export async function recordScannedFile(trx: Knex.Transaction, source: SourceRow | undefined, file: ScannedFile): Promise<KnowledgeScanResult> {
  if (!source) return { file_path: file.file_path, status: 'created', change: 'new', title: file.title, source_id: await insertPendingSource(trx, file) };
  if (source.content_sha256 === file.content_sha256) return { file_path: file.file_path, status: 'unchanged', title: source.title, source_id: Number(source.id) };
  await markSourceChanged(trx, source.id, file);
  await replaceChunks(trx, { source_type: 'knowledge', source_id: source.id, title: file.title }, []);
  return { file_path: file.file_path, status: 'created', change: 'changed', title: file.title, source_id: Number(source.id) };
}

/**
 * New files become pending sources, changed ones pending again (their chunks leave the search until the new
 * version is approved); unchanged files are left as they are. Files are read before the transaction.
 */
export async function scanKnowledgeDir(db: Knex, storage: Storage): Promise<KnowledgeScanResponse> {
  const { files, skipped } = await readScannedFiles(storage);
  const results = await db.transaction(async (trx) => {
    const known = new Map<string, SourceRow>((await allSourceRows(trx)).map((row) => [row.file_path, row]));
    const results: KnowledgeScanResult[] = [];
    for (const file of files) {
      results.push(await recordScannedFile(trx, known.get(file.file_path), file));
      known.delete(file.file_path);
    }
    for (const gone of [...known.values()].filter((row) => !isCentralSource(row))) results.push({ file_path: gone.file_path, status: 'missing', title: gone.title, source_id: Number(gone.id) });
    return results;
  });
  return { results: [...results, ...skipped].sort((a, b) => (a.file_path < b.file_path ? -1 : a.file_path > b.file_path ? 1 : 0)) };
}

const notPending = (row: SourceRow) =>
  new AppError(409, KnowledgeErrorCode.notPending, `Knowledge source ${row.id} is ${row.status}; only pending sources can be audited`);

async function pendingSource(db: Db, id: number): Promise<SourceRow> {
  const row = await findSourceRow(db, id);
  if (!row) throw notFound('Knowledge source');
  if (row.status !== 'pending') throw notPending(row);
  return row;
}

function formatError(filePath: string, error: KnowledgeFormatError): AppError {
  const details: KnowledgeFormatProblem = { file_path: filePath, line: error.line, problem: error.message };
  return new AppError(400, KnowledgeErrorCode.invalidFormat, `${filePath}, line ${error.line}: ${error.message}. Nothing was ingested.`, details);
}

/** The file as it was scanned, parsed; anything else (gone, changed, malformed) is a client error. */
async function readApprovedVersion(storage: Storage, source: SourceRow): Promise<ParsedSource> {
  const file = await readSourceFile(storage, source.file_path);
  if (file.state === 'missing') {
    throw new AppError(404, KnowledgeErrorCode.fileMissing, `The file ${source.file_path} is no longer in the knowledge directory; scan again`);
  }
  if (file.state === 'too_large' || sha256(file.content) !== source.content_sha256) {
    throw new AppError(409, KnowledgeErrorCode.fileChanged, `The file ${source.file_path} changed since it was scanned; scan again and review the new version`);
  }
  return parseSourceContent(source.file_path, file.content);
}

/** Parses a source's content; a malformed block is a 400 naming the file and line. */
export function parseSourceContent(filePath: string, content: Buffer): ParsedSource {
  try {
    return parseKnowledgeSource(content.toString('utf8'), fallbackTitle(filePath));
  } catch (err) {
    throw err instanceof KnowledgeFormatError ? formatError(filePath, err) : err;
  }
}

/** Synchronous ingestion in one transaction: a malformed block or a failure leaves the source pending and nothing ingested. */
export async function approveSource(db: Knex, storage: Storage, id: number, reviewerId: number): Promise<KnowledgeApproveResult> {
  const source = await pendingSource(db, id);
  const parsed = await readApprovedVersion(storage, source);
  return db.transaction((trx) => approveParsedSource(trx, source, parsed, reviewerId));
}

/**
 * pending → approved with the parsed content ingested, on the caller's transaction (approve, and the import of a
 * trusted knowledge pack). A block that cannot be ingested is a 400 naming the file.
 */
export async function approveParsedSource(trx: Knex.Transaction, source: SourceRow, parsed: ParsedSource, reviewerId: number): Promise<KnowledgeApproveResult> {
  const id = Number(source.id);
  try {
    // Claimed first: a concurrent approve waits on the row and then finds it no longer pending.
    if (!(await recordReview(trx, id, { status: 'approved', reviewed_by: reviewerId, meta: { title: parsed.title, domain: parsed.domain } }))) {
      throw notPending((await findSourceRow(trx, id)) ?? source);
    }
    const counts = await ingestSource(trx, id, parsed);
    await recordCounts(trx, id, counts);
    const warnings = parsed.products.flatMap((p) => (p.warnings ?? []).map((w) => ({ file_path: source.file_path, ...w })));
    return { status: 'approved' as const, source_id: id, ...counts, ...(warnings.length ? { warnings } : {}) };
  } catch (err) {
    throw err instanceof KnowledgeFormatError ? formatError(source.file_path, err) : err;
  }
}

export async function rejectSource(db: Db, id: number, reason: string, reviewerId: number): Promise<KnowledgeRejectResult> {
  const source = await pendingSource(db, id);
  if (!(await recordReview(db, id, { status: 'rejected', reviewed_by: reviewerId, reject_reason: reason }))) throw notPending((await findSourceRow(db, id)) ?? source);
  return { status: 'rejected', source_id: id, reject_reason: reason };
}
