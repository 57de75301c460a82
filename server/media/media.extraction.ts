// Background text extraction of approved media: one file at a time, progress written to the media row so that
// GET /api/media/status/{id} can report it, interrupted work picked up again at the next start.
import type { Db } from '../db/knex.js';
import { replaceChunks, splitIntoChunks } from '../knowledge/chunks.js';
import { MEDIA_DIRECT_MAX_BYTES } from '../../contract/media.js';
import { findMediaRow, updateExtraction, type ExtractionUpdate } from './media.repository.js';
import { extractTextInThread } from './media.extract-thread.js';
import { keys, type Storage } from '../storage/index.js';
import { now } from '../db/time.js';

/** Documents are read whole by the parsing libraries; beyond the direct-upload limit a file is refused, not parsed. */
const MAX_EXTRACT_BYTES = MEDIA_DIRECT_MAX_BYTES;
/** How long close() waits for the file being extracted; an unfinished one is taken up again at the next start. */
const STOP_GRACE_MS = 5000;

// Share of the progress bar per stage: reading 0-5, extracting 5-70, chunking 70-80, indexing 80-100.
const EXTRACTING_FROM = 5;
const EXTRACTING_TO = 70;

export interface ExtractionQueue {
  enqueue(mediaId: number): void;
  /** Queues what a previous run left queued or running. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

class UnusableText extends Error {}

// Keyed like the file signer (media.signing.ts): another domain that approves media, with only a db or trx at hand,
// queues the extraction here.
const queues = new WeakMap<object, ExtractionQueue>();

export function registerExtractionQueue(db: Db, queue: ExtractionQueue): void {
  queues.set(db.client.config, queue);
}

/** Queues an approved media's extraction; without a running queue, the next start's resume() takes it up. */
export function queueExtraction(db: Db, mediaId: number): void {
  queues.get(db.client.config)?.enqueue(mediaId);
}

export function extractionQueue(db: Db, storage: Storage, log: (err: unknown) => void): ExtractionQueue {
  const waiting: number[] = [];
  let current: Promise<void> | null = null;
  let stopped = false;

  const save = (id: number, update: ExtractionUpdate) => updateExtraction(db, id, update);

  async function extract(id: number): Promise<void> {
    const row = await findMediaRow(db, id);
    if (!row || row.status !== 'approved') return;
    let shown = EXTRACTING_FROM;
    await save(id, { extraction_state: 'running', extraction_stage: 'reading', extraction_progress: 0, extraction_error: null });
    try {
      if (Number(row.size) > MAX_EXTRACT_BYTES) throw new UnusableText(`The file is larger than ${MAX_EXTRACT_BYTES} bytes, too large to extract text from`);
      await save(id, { extraction_stage: 'extracting', extraction_progress: EXTRACTING_FROM });
      const text = await storage.withLocalCopy(keys.media(row.storage_key), (file) => extractTextInThread(file, row.file_ext, async (fraction) => {
        const progress = Math.floor(EXTRACTING_FROM + fraction * (EXTRACTING_TO - EXTRACTING_FROM));
        // Every few percent: a 500-page PDF must not turn into 500 writes.
        if (progress - shown >= 5) {
          shown = progress;
          await save(id, { extraction_progress: progress });
        }
      }));
      if (!text.trim()) throw new UnusableText('No text found in the file (an image-only scan or an empty document?)');
      await save(id, { extraction_stage: 'chunking', extraction_progress: EXTRACTING_TO });
      const chunks = splitIntoChunks(text);
      await save(id, { extraction_stage: 'indexing', extraction_progress: 80 });
      await db.transaction(async (trx) => {
        const count = await replaceChunks(trx, { source_type: 'media', source_id: id, title: row.filename }, chunks);
        await trx('media_files')
          .where({ id })
          .update({ extraction_state: 'done', extraction_stage: 'done', extraction_progress: 100, extraction_chunks: count, extraction_error: null, updated_at: now() });
      });
    } catch (err) {
      const reason = err instanceof UnusableText ? err.message : `Could not read the .${row.file_ext} file: ${(err as Error)?.message ?? String(err)}`;
      await save(id, { extraction_state: 'failed', extraction_error: reason.slice(0, 2000) });
    }
  }

  async function drain(): Promise<void> {
    for (let id = waiting.shift(); id !== undefined && !stopped; id = waiting.shift()) {
      await extract(id).catch(log);
    }
    current = null;
  }

  function enqueue(mediaId: number): void {
    if (stopped || waiting.includes(mediaId)) return;
    waiting.push(mediaId);
    current ??= drain();
  }

  return {
    enqueue,
    async resume() {
      const ids = await db('media_files').whereIn('extraction_state', ['queued', 'running']).orderBy('id').pluck('id');
      for (const id of ids) enqueue(Number(id));
    },
    async stop() {
      stopped = true;
      waiting.length = 0;
      if (current) await Promise.race([current, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
    },
  };
}
