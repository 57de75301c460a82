// Background text extraction of approved media, a job of the job queue (server/jobs/): one file at a time per node,
// progress written to the media row so that GET /api/media/status/{id} can report it from any node. Interrupted work
// is picked up again: at the next start on the laptop, by another node on the central server (its lease runs out).
import type { Db } from '../db/knex.js';
import { replaceChunks, splitIntoChunks } from '../knowledge/chunks.js';
import { MEDIA_DIRECT_MAX_BYTES } from '../../contract/media.js';
import { findMediaRow, updateExtraction, type ExtractionUpdate } from './media.repository.js';
import { extractTextInThread } from './media.extract-thread.js';
import { keys, type Storage } from '../storage/index.js';
import { now } from '../db/time.js';
import type { JobQueue } from '../jobs/queue.js';

/** Documents are read whole by the parsing libraries; beyond the direct-upload limit a file is refused, not parsed. */
const MAX_EXTRACT_BYTES = MEDIA_DIRECT_MAX_BYTES;
const JOB = 'media.extraction';
/** An extraction that fails is recorded as failed by the handler itself; retries are for a node lost mid-way. */
const RETRY_LIMIT = 2;

// Share of the progress bar per stage: reading 0-5, extracting 5-70, chunking 70-80, indexing 80-100.
const EXTRACTING_FROM = 5;
const EXTRACTING_TO = 70;

export interface ExtractionQueue {
  enqueue(mediaId: number): void;
}

/** Stopped because the job was cancelled or the node is stopping: nothing is recorded, the job is taken up again. */
class Interrupted extends Error {}

class UnusableText extends Error {}

// Keyed like the file signer (media.signing.ts): another domain that approves media, with only a db or trx at hand,
// queues the extraction here.
const queues = new WeakMap<object, ExtractionQueue>();

export function registerExtractionQueue(db: Db, queue: ExtractionQueue): void {
  queues.set(db.client.config, queue);
}

/** Queues an approved media's extraction; without a running queue, the next start takes it up. */
export function queueExtraction(db: Db, mediaId: number): void {
  queues.get(db.client.config)?.enqueue(mediaId);
}

export function extractionQueue(db: Db, storage: Storage, jobs: JobQueue, leaseSeconds: number, log: (err: unknown) => void): ExtractionQueue {
  const save = (id: number, update: ExtractionUpdate) => updateExtraction(db, id, update);

  async function extract(id: number, signal: AbortSignal): Promise<void> {
    const check = () => {
      if (signal.aborted) throw new Interrupted();
    };
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
      check();
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
      if (err instanceof Interrupted) throw err;
      const reason = err instanceof UnusableText ? err.message : `Could not read the .${row.file_ext} file: ${(err as Error)?.message ?? String(err)}`;
      await save(id, { extraction_state: 'failed', extraction_error: reason.slice(0, 2000) });
    }
  }

  jobs.register<{ media_id: number }>({
    name: JOB,
    retryLimit: RETRY_LIMIT,
    leaseSeconds,
    run: ({ media_id }, job) => extract(media_id, job.signal),
    unfinished: async () => {
      const ids = await db('media_files').whereIn('extraction_state', ['queued', 'running']).orderBy('id').pluck('id');
      return ids.map((id) => ({ key: String(id), payload: { media_id: Number(id) } }));
    },
  });

  return {
    enqueue(mediaId) {
      jobs.enqueue(JOB, String(mediaId), { media_id: mediaId }).catch(log);
    },
  };
}
