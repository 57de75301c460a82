// Builds a pack of approved knowledge sources and media into a work folder; the route streams it out.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/knex.js';
import { KnowledgeErrorCode } from '../../contract/knowledge.js';
import { PackErrorCode } from '../../contract/knowledge-packs.js';
import { AppError, notFound } from '../http/errors.js';
import { now } from '../db/time.js';
import { readSourceFile, sha256 } from '../knowledge/source-files.js';
import type { SourceRow } from '../knowledge/sources.repository.js';
import type { MediaRow } from '../media/media.repository.js';
import { mediaSha256 } from '../media/media.hash.js';
import { keys, withLocalCopies, type Storage } from '../storage/index.js';
import { writePack, type PackMedia, type PackSource } from './pack-file.js';
import type { PackSigner } from './signing.js';
import { portableBinding } from './bindings.js';
import { mediaRows, sourceRows } from './packs.repository.js';
import type { ExportSelection } from './packs.schema.js';

export interface ExportDeps {
  db: Db;
  knowledgeStorage: Storage;
  storage: Storage;
  signer: PackSigner;
}

export interface BuiltPack {
  file: string;
  size: number;
  /** trainbench-pack-<date>.tgz */
  filename: string;
}

/** Every requested id must exist (404) and be approved (400, listing those that are not). */
async function requested<T extends { id: number; status: string }>(ids: number[], load: (ids: number[]) => Promise<T[]>, what: string): Promise<T[]> {
  const unique = [...new Set(ids)];
  const rows = unique.length ? await load(unique) : [];
  const found = new Set(rows.map((r) => Number(r.id)));
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(`${what} ${missing}`);
  return rows;
}

async function selectedRows(db: Db, selection: ExportSelection): Promise<{ sources: SourceRow[]; media: MediaRow[] }> {
  if (selection.source_ids === undefined && selection.media_ids === undefined) return { sources: await sourceRows(db), media: await mediaRows(db) };
  const sources = await requested(selection.source_ids ?? [], (ids) => sourceRows(db, ids), 'Knowledge source');
  const media = await requested(selection.media_ids ?? [], (ids) => mediaRows(db, ids), 'Media');
  const pendingSources = sources.filter((s) => s.status !== 'approved').map((s) => Number(s.id));
  const pendingMedia = media.filter((m) => m.status !== 'approved').map((m) => Number(m.id));
  if (pendingSources.length || pendingMedia.length) {
    throw new AppError(400, PackErrorCode.notApproved, 'Only approved knowledge sources and media can be exported', { source_ids: pendingSources, media_ids: pendingMedia });
  }
  return { sources, media };
}

/** The file as it was approved: a file changed or removed since would carry content nobody reviewed. */
async function approvedContent(knowledgeStorage: Storage, source: SourceRow): Promise<Buffer> {
  const file = await readSourceFile(knowledgeStorage, source.file_path);
  if (file.state === 'missing') throw new AppError(404, KnowledgeErrorCode.fileMissing, `The file ${source.file_path} is no longer in the knowledge directory`);
  if (file.state === 'too_large' || sha256(file.content) !== source.content_sha256) {
    throw new AppError(409, KnowledgeErrorCode.fileChanged, `The file ${source.file_path} changed since it was approved; scan and approve it again before exporting it`);
  }
  return file.content;
}

export async function buildPack({ db, knowledgeStorage, storage, signer }: ExportDeps, selection: ExportSelection, work: string): Promise<BuiltPack> {
  const { sources, media } = await selectedRows(db, selection);
  if (!sources.length && !media.length) throw new AppError(400, PackErrorCode.empty, 'Nothing to export: there is no approved knowledge source or media in the selection');
  const files = new Map<string, string>();
  const read = path.join(work, 'read');
  await fs.mkdir(read);

  const packSources: PackSource[] = [];
  for (const source of sources) {
    const content = await approvedContent(knowledgeStorage, source);
    const inPack = `sources/${source.id}.md`;
    // Staged from this copy, so the pack holds exactly the bytes that were checked.
    const copy = path.join(read, `${source.id}.md`);
    await fs.writeFile(copy, content);
    files.set(inPack, copy);
    packSources.push({ path: inPack, size: content.length, sha256: sha256(content), file_path: source.file_path, title: source.title, domain: source.domain });
  }

  const packMedia: PackMedia[] = [];
  for (const row of media) {
    const [hash, info] = await Promise.all([mediaSha256(db, storage, row), storage.stat(keys.media(row.storage_key))]);
    if (!hash || !info) throw notFound(`The stored file of media ${row.id}`);
    const inPack = `media/${row.id}${row.file_ext ? `.${row.file_ext}` : ''}`;
    packMedia.push({ path: inPack, size: info.size, sha256: hash, filename: row.filename, file_ext: row.file_ext, mime_type: row.mime_type, ...(await portableBinding(db, row)) });
  }

  const file = path.join(work, 'pack.tgz');
  const createdAt = now();
  // The media as local files while the pack is written (the stored files themselves locally; temporary copies on S3).
  await withLocalCopies(storage, media.map((row) => keys.media(row.storage_key)), async (stored) => {
    stored.forEach((local, i) => files.set(packMedia[i]!.path, local));
    await writePack(file, path.join(work, 'stage'), { created_at: createdAt, sources: packSources, media: packMedia }, files, signer);
  });
  return { file, size: (await fs.stat(file)).size, filename: `trainbench-pack-${createdAt.slice(0, 10)}.tgz` };
}
