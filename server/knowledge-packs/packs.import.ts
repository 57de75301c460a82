// Imports a verified pack: source files into the knowledge storage's imported/<fingerprint>/, media into media storage, and
// every record in one transaction. Whatever fails, nothing stays behind: no rows, no files.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import type { User } from '../../contract/users.js';
import type { PackImportedMedia, PackImportedSource, PackImportResult, PackItemChange } from '../../contract/knowledge-packs.js';
import type { KnowledgeScanResult } from '../../contract/knowledge.js';
import { readConfigValue } from '../system/config.service.js';
import { approveParsedSource, parseSourceContent, recordScannedFile } from '../knowledge/knowledge.service.js';
import { findSourceRow, findSourceRowByPath } from '../knowledge/sources.repository.js';
import { addMedia, auditMedia } from '../media/media.service.js';
import { findMediaRow } from '../media/media.repository.js';
import { queueExtraction } from '../media/media.extraction.js';
import { displayName } from '../media/media.names.js';
import { removeStoredFile } from '../media/media.storage.js';
import { mediaSha256 } from '../media/media.hash.js';
import type { Storage } from '../storage/index.js';
import { readPack } from './pack-file.js';
import { fingerprintOf, isTrusted } from './signing.js';
import { localBinding } from './bindings.js';
import { mediaLike } from './packs.repository.js';
import { importableManifest, type ImportableMedia, type ImportableSource } from './packs.schema.js';
import { placeFiles } from './source-placement.js';

/** Largest pack accepted, uploaded or unpacked. */
export const MAX_PACK_BYTES = 4 * 1024 * 1024 * 1024;

export interface ImportDeps {
  db: Knex;
  /** The knowledge sources' files (KNOWLEDGE_DIR, or the bucket's knowledge/ prefix). */
  knowledgeStorage: Storage;
  storage: Storage;
}

interface ImportContext extends ImportDeps {
  trx: Knex.Transaction;
  /** Where the pack is unpacked. */
  work: string;
  admin: User;
  trusted: boolean;
  fingerprint: string;
  /** Storage keys of the media files moved into storage, to remove if the transaction fails. */
  stored: string[];
  /** Media approved by this import whose text must be extracted once committed. */
  toExtract: number[];
}

const importedPath = (fingerprint: string, filePath: string) => `imported/${fingerprint}/${filePath}`;

/** The pack's own vocabulary for what the scan of the written file found. */
const packChange = (scanned: KnowledgeScanResult): PackItemChange =>
  scanned.status !== 'created' ? 'unchanged' : scanned.change === 'changed' ? 'updated' : 'created';

async function importSource(c: ImportContext, entry: ImportableSource): Promise<PackImportedSource> {
  const filePath = importedPath(c.fingerprint, entry.file_path);
  const scanned = await recordScannedFile(c.trx, await findSourceRowByPath(c.trx, filePath), { file_path: filePath, title: entry.title, domain: entry.domain, content_sha256: entry.sha256 });
  const id = scanned.source_id!;
  let row = (await findSourceRow(c.trx, id))!;
  if (c.trusted && row.status === 'pending') {
    await approveParsedSource(c.trx, row, parseSourceContent(filePath, await fs.readFile(path.join(c.work, entry.path))), c.admin.id);
    row = (await findSourceRow(c.trx, id))!;
  }
  return { id, file_path: filePath, title: row.title, status: row.status, change: packChange(scanned) };
}

/** A media already holding these bytes under this name: importing the same pack again must not duplicate it. */
async function existingMedia(deps: ImportDeps, entry: ImportableMedia): Promise<number | undefined> {
  for (const row of await mediaLike(deps.db, displayName(entry.filename), entry.size)) {
    if ((await mediaSha256(deps.db, deps.storage, row)) === entry.sha256) return Number(row.id);
  }
  return undefined;
}

async function importMedia(c: ImportContext, entry: ImportableMedia, existing: number | undefined): Promise<PackImportedMedia> {
  let id = existing !== undefined && (await findMediaRow(c.trx, existing)) ? existing : undefined;
  const change = id === undefined ? 'created' : 'unchanged';
  if (id === undefined) {
    const file = { path: path.join(c.work, entry.path), clientName: entry.filename, size: entry.size };
    const created = await addMedia(c.trx, c.storage, file, await localBinding(c.trx, entry), c.admin, `Imported from knowledge pack ${c.fingerprint}`);
    id = created.id;
    c.stored.push((await findMediaRow(c.trx, id))!.storage_key);
  }
  if (c.trusted && (await findMediaRow(c.trx, id))!.status === 'pending') {
    const { extract } = await auditMedia(c.trx, id, c.admin, { action: 'approve' });
    if (extract) c.toExtract.push(id);
  }
  const row = (await findMediaRow(c.trx, id))!;
  return { id, filename: row.filename, status: row.status, change };
}

/**
 * Verifies the pack (400 pack_invalid), places the source files (409 pack_conflict when a file it does not own is in
 * the way), then records everything in one transaction: sources first, so that products a trusted pack defines can
 * bind its media.
 */
export async function importPack(deps: ImportDeps, packFile: string, work: string, admin: User): Promise<{ result: PackImportResult; changed: boolean }> {
  const manifest = await readPack(packFile, work, { maxBytes: MAX_PACK_BYTES });
  const { sources, media } = importableManifest(manifest);
  const fingerprint = fingerprintOf(manifest.public_key);
  const trusted = isTrusted(manifest.public_key, await readConfigValue<string[]>(deps.db, 'trusted_pack_keys'));

  // A different file may only be replaced when it is the source an earlier import (or scan) registered, as it was.
  const placement = await placeFiles(
    deps.knowledgeStorage,
    sources.map((s) => ({ relativePath: importedPath(fingerprint, s.file_path), from: path.join(work, s.path), sha256: s.sha256 })),
    async (relativePath, current) => (await findSourceRowByPath(deps.db, relativePath))?.content_sha256 === current,
  );
  const existing = await Promise.all(media.map((m) => existingMedia(deps, m)));
  const stored: string[] = [];
  const toExtract: number[] = [];
  try {
    const result = await deps.db.transaction(async (trx) => {
      const c: ImportContext = { ...deps, trx, work, admin, trusted, fingerprint, stored, toExtract };
      const importedSources: PackImportedSource[] = [];
      for (const entry of sources) importedSources.push(await importSource(c, entry));
      const importedMedia: PackImportedMedia[] = [];
      for (const [i, entry] of media.entries()) importedMedia.push(await importMedia(c, entry, existing[i]));
      return { trusted, fingerprint, sources: importedSources, media: importedMedia };
    });
    await placement.commit();
    for (const id of toExtract) queueExtraction(deps.db, id);
    return { result, changed: [...result.sources, ...result.media].some((item) => item.change !== 'unchanged') };
  } catch (err) {
    await placement.undo();
    await Promise.all(stored.map((key) => removeStoredFile(deps.storage, key)));
    throw err;
  }
}
