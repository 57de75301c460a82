// A failed transcription job keeps its recording in the storage (the bucket on a cluster, so any node can retry it)
// until it is retried: a retry is a new job from the same recording and options, which replaces the failed one in
// the owner's list. A job whose audio was never stored (it failed as it was received) answers 409
// `audio.retry_unavailable` and the file must be sent again.
import crypto from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/knex.js';
import { AppError } from '../http/errors.js';
import { parseJson } from '../db/rows.js';
import { mkdirPrivate } from '../data-dir.js';
import { AudioErrorCode, type TranscriptionJob } from '../../contract/audio.js';
import { keys, type Storage } from '../storage/index.js';
import type { JobOptions } from './jobs.repository.js';
import type { TranscriptionJobs } from './jobs.service.js';

/** Called as a job fails, before the job's stored audio is removed: it is copied aside (server-side). Never fails the job. */
export async function keepFailedRecording(storage: Storage, jobId: number, log: (err: unknown) => void): Promise<void> {
  await storage.copy(keys.audioJob(jobId), keys.failedJobAudio(jobId)).catch(log);
}

/** Starts the caller's failed job again as a new job (202 in the route); the failed job and its kept recording go. */
export async function retryJob(db: Db, jobs: TranscriptionJobs, storage: Storage, incomingDir: string, userId: number, id: number): Promise<TranscriptionJob> {
  const failed = await jobs.get(userId, id);
  if (failed.state !== 'failed') throw new AppError(409, AudioErrorCode.jobNotFailed, `Transcription job ${id} is ${failed.state}; only a failed job can be retried`);
  const key = keys.failedJobAudio(id);
  if (!(await storage.stat(key))) {
    throw new AppError(409, AudioErrorCode.retryUnavailable, `The recording of transcription job ${id} was not kept; send the file again`);
  }
  await mkdirPrivate(incomingDir);
  const upload = path.join(incomingDir, `retry-${id}-${crypto.randomUUID()}`);
  try {
    await pipeline(await storage.get(key), createWriteStream(upload, { mode: 0o600 }));
    // Claimed by removing the failed row: of two retries at once, one goes on and the other is a 409.
    const row = await db('audio_jobs').where({ id, user_id: userId }).first('options');
    const claimed = await db('audio_jobs').where({ id, user_id: userId, state: 'failed' }).delete();
    if (!claimed) throw new AppError(409, AudioErrorCode.jobNotFailed, `Transcription job ${id} is being retried already`);
    const options = parseJson<JobOptions>(row?.options, { language: failed.language, speakers_requested: failed.speakers_requested, channel_names: failed.channel_names, allow_cloud: failed.allow_cloud });
    const job = await jobs.submit({ userId, upload, filename: failed.filename, fileSize: failed.file_size, audio: failed.audio, options });
    await storage.delete(key);
    return job;
  } finally {
    await fs.rm(upload, { force: true });
  }
}
