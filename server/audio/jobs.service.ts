// Every transcription is a job: a synchronous request waits for its own, an asynchronous one answers 202 at once.
// A job's row is the record (state, stage, route, error, transcription); while it runs in this process its live
// copy also carries the percent done and its place in the queue for the local slot, and listeners (the SSE
// endpoint) are told of every change. Percent is written to the row at most every PERCENT_WRITE_MS.
//
// When the server stops, running jobs are stopped (their whisper.cpp killed) and left as they were; the next start
// of a server on the same DATA_DIR fails them with a reason, so no job ever stays "running" for good.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../db/knex.js';
import { now } from '../db/time.js';
import { AppError, notFound } from '../http/errors.js';
import type { Page } from '../../contract/envelope.js';
import { AudioErrorCode, type AudioInfo, type TranscriptionJob, type TranscriptionJobError, type TranscriptionJobEvent, type TranscriptionJobState } from '../../contract/audio.js';
import { readConfigValue } from '../system/config.service.js';
import { failInterruptedJobs, findJob, insertJob, listJobs, updateJob, type JobChanges, type JobOptions } from './jobs.repository.js';
import { localSlot } from './local-slot.js';
import type { ModelDirs } from './models.js';
import { transcribe, type TranscribeRequest } from './transcribe.service.js';
import { keepRecording } from './recordings.js';
import type { Storage } from '../storage/index.js';
import { transcribed } from './transcription-events.js';
import { keepFailedRecording } from './job-retry.js';

const PERCENT_WRITE_MS = 2_000;

const FINISHED: TranscriptionJobState[] = ['done', 'failed', 'cancelled'];
export const isFinished = (job: TranscriptionJob) => FINISHED.includes(job.state);

interface LiveJob {
  job: TranscriptionJob;
  userId: number;
  controller: AbortController;
  listeners: Set<(event: TranscriptionJobEvent) => void>;
  finished: Promise<void>;
  percentWrittenAt: number;
  /** Row updates, one after the other: a late progress write never lands after the final state. */
  writes: Promise<void>;
}

class Cancelled extends Error {
  override name = 'Cancelled';
}
class Stopping extends Error {
  override name = 'Stopping';
}

const toJobError = (err: unknown): TranscriptionJobError =>
  err instanceof AppError
    ? { status: err.status, code: err.code, message: err.message, ...(err.details !== undefined && { details: err.details as Record<string, unknown> }) }
    : { status: 500, code: 'internal_error', message: 'The transcription failed unexpectedly' };

export interface NewJob {
  userId: number;
  /** The received upload; it is moved into the job's folder. */
  upload: string;
  filename: string;
  fileSize: number;
  audio: AudioInfo;
  options: JobOptions;
}

export class TranscriptionJobs {
  private readonly live = new Map<number, LiveJob>();
  private stopping = false;
  /**
   * recover() must be done before new jobs exist, or it would fail them, and before jobs are read, or a job the last
   * run left would still read as running.
   */
  private ready: Promise<void> = Promise.resolve();
  private readonly runner: string;
  private readonly jobsDir: string;
  private readonly unsubscribeSlot: () => void;

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly modelDirs: ModelDirs,
    private readonly log: (err: unknown) => void,
    private readonly storage: Storage,
  ) {
    this.runner = `${os.hostname()}:${dataDir}`;
    this.jobsDir = path.join(dataDir, 'audio', 'jobs');
    this.unsubscribeSlot = localSlot.onChange(() => this.queueMoved());
  }

  /** At start: what this runner left unfinished fails with a reason, and leftover job folders go. */
  recover(): Promise<void> {
    this.ready = this.sweep();
    return this.ready;
  }

  private async sweep(): Promise<void> {
    await failInterruptedJobs(this.db, this.runner, {
      status: 500,
      code: 'audio.job_interrupted',
      message: 'The server stopped while this transcription was queued or running; nothing was stored. Send the file again.',
    });
    const folders = await fs.readdir(this.jobsDir).catch(() => [] as string[]);
    await Promise.all(folders.filter((name) => !this.live.has(Number(name))).map((name) => fs.rm(path.join(this.jobsDir, name), { recursive: true, force: true })));
  }

  /** Creates the job and starts it; the upload now belongs to the job. */
  async submit(input: NewJob): Promise<TranscriptionJob> {
    await this.ready.catch(() => undefined);
    const job = await insertJob(this.db, { user_id: input.userId, filename: input.filename, file_size: input.fileSize, audio: input.audio, options: input.options, runner: this.runner });
    const workDir = path.join(this.jobsDir, String(job.id));
    await fs.mkdir(workDir, { recursive: true });
    const source = path.join(workDir, 'upload');
    await fs.rename(input.upload, source);
    const live: LiveJob = { job, userId: input.userId, controller: new AbortController(), listeners: new Set(), finished: Promise.resolve(), percentWrittenAt: 0, writes: Promise.resolve() };
    this.live.set(job.id, live);
    live.finished = this.run(live, input, source, workDir);
    return { ...job };
  }

  private emit(live: LiveJob, event?: TranscriptionJobEvent) {
    const e = event ?? { type: 'progress', job: { ...live.job } };
    for (const listener of live.listeners) listener(e);
  }

  private async change(live: LiveJob, changes: JobChanges, write = true) {
    Object.assign(live.job, changes);
    if (changes.state && changes.state !== 'queued') live.job.queue_position = null;
    // The end of a job is told by its own event (done, error, cancelled).
    if (!isFinished(live.job)) this.emit(live);
    if (write) {
      live.percentWrittenAt = Date.now();
      live.writes = live.writes.catch(() => undefined).then(() => updateJob(this.db, live.job.id, changes));
      await live.writes;
    }
  }

  private progress(live: LiveJob, fraction: number, stage: TranscriptionJob['stage']) {
    const percent = Math.min(99, Math.floor(fraction * 100));
    if (percent === live.job.percent && stage === live.job.stage) return;
    const write = stage !== live.job.stage || Date.now() - live.percentWrittenAt >= PERCENT_WRITE_MS;
    void this.change(live, { percent, stage }, write).catch(this.log);
  }

  private queueMoved() {
    for (const live of this.live.values()) {
      const position = localSlot.position(live.job.id) ?? null;
      if (position !== live.job.queue_position) {
        live.job.queue_position = position;
        if (position !== null && live.job.state !== 'queued') void this.change(live, { state: 'queued', stage: 'queued' }).catch(this.log);
        else this.emit(live);
      }
    }
  }

  private async run(live: LiveJob, input: NewJob, source: string, workDir: string): Promise<void> {
    const { signal } = live.controller;
    try {
      const request: TranscribeRequest = {
        userId: input.userId,
        jobId: live.job.id,
        fileSize: input.fileSize,
        filePath: source,
        filename: input.filename,
        audio: input.audio,
        language: input.options.language ?? undefined,
        speakersRequested: input.options.speakers_requested,
        channelNames: input.options.channel_names ?? undefined,
        speakerCount: input.options.speaker_count ?? undefined,
        allowCloud: input.options.allow_cloud,
        workDir,
        modelDirs: this.modelDirs,
        quality: 'accurate',
        signal,
        onProgress: (fraction, stage) => this.progress(live, fraction, stage),
        keepRecording: () => keepRecording(this.storage, source, input.audio, this.log, signal),
        // A local-whisper route turns the job "running" once it holds the local slot; any other route at once.
        onRoute: (route) =>
          void this.change(live, { route, percent: 0, ...(route.provider !== 'local-whisper' && { state: 'running', stage: 'uploading', started_at: live.job.started_at ?? now() }) }).catch(this.log),
        holdingLocalSlot: async (work) => {
          const release = await localSlot.acquire(live.job.id, signal);
          try {
            // The setting in force when the job gets the machine, not when it was queued.
            request.quality = await readConfigValue<'accurate' | 'fast'>(this.db, 'audio_local_quality');
            await this.change(live, { state: 'running', stage: 'decoding', ...(live.job.started_at ? {} : { started_at: now() }) });
            return await work();
          } finally {
            release();
          }
        },
      };
      const transcription = await transcribe(this.db, request);
      await transcribed(this.db, input.userId, transcription, this.log);
      await this.change(live, { state: 'done', stage: 'finished', percent: 100, transcription_id: transcription.id, finished_at: now(), ...(live.job.started_at ? {} : { started_at: transcription.created_at }) }, true);
      this.emit(live, { type: 'done', job: { ...live.job }, transcription_id: transcription.id });
    } catch (err) {
      if (this.stopping && signal.reason instanceof Stopping) return;
      if (signal.aborted && signal.reason instanceof Cancelled) {
        await this.change(live, { state: 'cancelled', stage: 'finished', finished_at: now() });
        this.emit(live, { type: 'cancelled', job: { ...live.job } });
      } else {
        if (!(err instanceof AppError)) this.log(err);
        const error = toJobError(err);
        await keepFailedRecording(this.storage, live.job.id, source, this.log);
        await this.change(live, { state: 'failed', stage: 'finished', error, finished_at: now() });
        this.emit(live, { type: 'error', job: { ...live.job }, error });
      }
    } finally {
      this.live.delete(live.job.id);
      live.listeners.clear();
      await fs.rm(workDir, { recursive: true, force: true }).catch(this.log);
    }
  }

  /** The caller's job, with its live percent and queue place when it runs here; another user's is a 404. */
  async get(userId: number, id: number): Promise<TranscriptionJob> {
    await this.ready.catch(() => undefined);
    const live = this.live.get(id);
    if (live && live.userId === userId) return { ...live.job };
    const job = await findJob(this.db, userId, id);
    if (!job) throw notFound('Transcription job');
    return job;
  }

  async list(userId: number, filter: { page: number; size: number; state?: TranscriptionJobState }): Promise<Page<TranscriptionJob>> {
    await this.ready.catch(() => undefined);
    const page = await listJobs(this.db, userId, filter);
    return { ...page, items: page.items.map((job) => (this.live.has(job.id) ? { ...this.live.get(job.id)!.job } : job)) };
  }

  /** Stops the job: taken out of the queue, or its whisper.cpp killed; nothing is stored. 409 when already finished. */
  async cancel(userId: number, id: number): Promise<TranscriptionJob> {
    const job = await this.get(userId, id);
    const live = this.live.get(id);
    if (!live || isFinished(job)) throw new AppError(409, AudioErrorCode.jobFinished, `This transcription job is already ${job.state}`);
    live.controller.abort(new Cancelled('cancelled'));
    await live.finished;
    return this.get(userId, id);
  }

  /** Resolves once the job has finished (at once when it is not running here). */
  async settled(id: number): Promise<void> {
    await this.live.get(id)?.finished;
  }

  /**
   * Calls `listener` with every change of a job running here and returns the unsubscribe function; undefined when
   * the job does not run in this process (finished, or run by another server).
   */
  subscribe(id: number, listener: (event: TranscriptionJobEvent) => void): (() => void) | undefined {
    const live = this.live.get(id);
    if (!live) return undefined;
    live.listeners.add(listener);
    return () => live.listeners.delete(listener);
  }

  /** Kills running whisper.cpp children and leaves their jobs for the next start to fail. */
  async close(): Promise<void> {
    this.stopping = true;
    this.unsubscribeSlot();
    const running = [...this.live.values()];
    for (const live of running) live.controller.abort(new Stopping('the server is stopping'));
    await Promise.all(running.map((live) => live.finished));
  }
}
