// Every transcription is a job of the job queue (server/jobs/): a synchronous request waits for its own, an
// asynchronous one answers 202 at once. The uploaded audio is kept in the storage (keys.audioJob, a folder under
// DATA_DIR or the bucket) until the job ends, so whichever node claims the job runs it: in this process on the
// laptop, any node of the central cluster on PostgreSQL (pg-boss: a lease that a node killed mid-job loses).
//
// A job's row is the record (state, stage, percent, route, error, transcription) that every node answers from. Each
// run claims the row (audio_jobs.attempts, runner) and writes it only while its claim holds, so a cancelled job or
// one another node took over is never written by a stale run, and the transcription is stored once: in the same
// transaction as the conditional update that finishes the job. While a job runs in this process its live copy also
// carries the percent done, and listeners (the SSE endpoint) are told of every change. A queued job's place in line
// (queue_position) is read from the rows, so every node answers the same. Percent is written to the row at most every PERCENT_WRITE_MS.
//
// When the server stops, running jobs are stopped (their whisper.cpp killed) and left for another run: the next
// start on the laptop, another node on the central server. A job taken up more than RETRY_LIMIT times fails with
// `audio.job_interrupted`, so no job ever stays "running" for good.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../db/knex.js';
import { now } from '../db/time.js';
import { AppError, notFound } from '../http/errors.js';
import type { Page } from '../../contract/envelope.js';
import { AudioErrorCode, type AudioInfo, type TranscriptionJob, type TranscriptionJobError, type TranscriptionJobEvent, type TranscriptionJobState } from '../../contract/audio.js';
import { readConfigValue } from '../system/config.service.js';
import {
  cancelJob,
  claimJob,
  endedJobIds,
  findJob,
  insertJob,
  jobState,
  listJobs,
  queuePositions,
  unfinishedJobIds,
  updateClaimedJob,
  updateJob,
  type JobChanges,
  type JobClaim,
  type JobOptions,
} from './jobs.repository.js';
import { localSlot } from './local-slot.js';
import type { ModelDirs } from './models.js';
import { transcribe, type TranscribeRequest } from './transcribe.service.js';
import { keepRecording, type StoredRecording } from './recordings.js';
import { isNotFound, keys, type Storage } from '../storage/index.js';
import { transcribed } from './transcription-events.js';
import { keepFailedRecording } from './job-retry.js';
import type { JobContext, JobQueue } from '../jobs/queue.js';
import { mkdirPrivate } from '../data-dir.js';

const JOB = 'audio.transcription';
/**
 * Runs of a job: RETRY_LIMIT at most transcribe (again after a node lost mid-way or stopped, or an unexpected
 * error; a route's failure is final), one more only records the failure.
 */
const RETRY_LIMIT = 3;
/** Jobs one node runs at once: cloud routes in parallel, local ones wait for the local slot in order. */
const CONCURRENCY = 4;
const PERCENT_WRITE_MS = 2_000;
/** How often a request waiting for a job run elsewhere reads its row. */
const WAIT_POLL_MS = 500;
/** How often the places in line of jobs queued in this process are read again from the rows. */
const POSITIONS_READ_MS = 2_000;

const FINISHED: TranscriptionJobState[] = ['done', 'failed', 'cancelled'];
export const isFinished = (job: Pick<TranscriptionJob, 'state'>) => FINISHED.includes(job.state);

const INTERRUPTED: TranscriptionJobError = {
  status: 500,
  code: AudioErrorCode.jobInterrupted,
  message: `The server stopped while this transcription was queued or running (${RETRY_LIMIT} times); nothing was stored. Send the file again.`,
};

interface LiveJob {
  job: TranscriptionJob;
  userId: number;
  claim: JobClaim;
  /** Aborted when this run finds it no longer holds the job (cancelled, or taken over by another node). */
  controller: AbortController;
  listeners: Set<(event: TranscriptionJobEvent) => void>;
  finished: Promise<void>;
  percentWrittenAt: number;
  /** Row updates, one after the other: a late progress write never lands after the final state. */
  writes: Promise<void>;
}

/** The run no longer holds the job: it was cancelled, or another node took it over. */
class Lost extends Error {
  override name = 'Lost';
}
/** The node is stopping: the job is left for another run. */
class Interrupted extends Error {
  override name = 'Interrupted';
}

const toJobError = (err: unknown): TranscriptionJobError =>
  err instanceof AppError
    ? { status: err.status, code: err.code, message: err.message, ...(err.details !== undefined && { details: err.details as Record<string, unknown> }) }
    : { status: 500, code: 'internal_error', message: 'The transcription failed unexpectedly' };

export interface NewJob {
  userId: number;
  /** The received upload; it is moved into the storage. */
  upload: string;
  filename: string;
  fileSize: number;
  audio: AudioInfo;
  options: JobOptions;
}

export class TranscriptionJobs {
  private readonly live = new Map<number, LiveJob>();
  /** Requests of this process waiting for a job to end, woken when it ends here (else they read the row). */
  private readonly waiters = new Map<number, Set<() => void>>();
  /** Clean-up at start: done before this process runs a job, so it never removes a running job's files. */
  private ready: Promise<void> = Promise.resolve();
  private readonly runner: string;
  /** This node's scratch folders of running jobs (decoded audio, whisper.cpp's output): never a user's file. */
  private readonly scratchDir: string;
  private readonly unsubscribeSlot: () => void;
  private readonly positionsTimer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    dataDir: string,
    private readonly modelDirs: ModelDirs,
    private readonly log: (err: unknown) => void,
    private readonly storage: Storage,
    private readonly queue: JobQueue,
    leaseSeconds: number,
  ) {
    this.runner = `${os.hostname()}:${dataDir}`;
    this.scratchDir = path.join(dataDir, 'audio', 'work');
    this.unsubscribeSlot = localSlot.onChange(() => this.queueMoved());
    // Jobs queued here also move up when jobs start or end on other nodes: their places are read again now and then.
    this.positionsTimer = setInterval(() => {
      if ([...this.live.values()].some((live) => live.job.state === 'queued')) void this.readPositions().catch(this.log);
    }, POSITIONS_READ_MS).unref();
    queue.register<{ job_id: number }>({
      name: JOB,
      retryLimit: RETRY_LIMIT,
      leaseSeconds,
      concurrency: CONCURRENCY,
      run: ({ job_id }, context) => this.runJob(job_id, context),
      unfinished: async () => (await unfinishedJobIds(db)).map((id) => ({ key: String(id), payload: { job_id: id } })),
    });
  }

  /** At start: scratch folders a killed run left on this node go, and the stored audio of jobs that have ended. */
  recover(): Promise<void> {
    this.ready = this.sweep();
    return this.ready;
  }

  private async sweep(): Promise<void> {
    await fs.rm(this.scratchDir, { recursive: true, force: true });
    const stored = new Set<number>();
    for await (const object of this.storage.list(keys.audioJobsPrefix)) {
      const id = Number(object.key.slice(keys.audioJobsPrefix.length).split('/')[0]);
      if (Number.isSafeInteger(id) && id > 0) stored.add(id);
    }
    for (const id of await endedJobIds(this.db, [...stored])) await this.storage.deletePrefix(keys.audioJobPrefix(id));
  }

  /** Creates the job, keeps its audio in the storage and queues it; the upload now belongs to the job. */
  async submit(input: NewJob): Promise<TranscriptionJob> {
    await this.ready.catch(() => undefined);
    const job = await insertJob(this.db, { user_id: input.userId, filename: input.filename, file_size: input.fileSize, audio: input.audio, options: input.options, runner: this.runner });
    try {
      await this.storage.putFile(keys.audioJob(job.id), input.upload, { move: true });
      await this.queue.enqueue(JOB, String(job.id), { job_id: job.id });
    } catch (err) {
      await updateJob(this.db, job.id, { state: 'failed', stage: 'finished', error: toJobError(err), finished_at: now() }).catch(this.log);
      await this.storage.deletePrefix(keys.audioJobPrefix(job.id)).catch(this.log);
      throw err;
    }
    return { ...job };
  }

  /** A run of the job on this node (the queue's handler). Throws only to have the queue run it again. */
  private async runJob(id: number, context: JobContext): Promise<void> {
    await this.ready.catch(() => undefined);
    const claimed = await claimJob(this.db, id, this.runner);
    if (!claimed) {
      // Finished (cancelled while waiting) or taken by another run: its audio goes once the job has ended.
      const state = await jobState(this.db, id);
      if (state && isFinished({ state })) await this.removeAudio(id);
      return;
    }
    const { claim, job, userId, options } = claimed;
    // The queue's last run only records that the job could not be finished, so that it never stays "running".
    if (claim.attempt > RETRY_LIMIT) {
      await keepFailedRecording(this.storage, id, this.log);
      if (await updateClaimedJob(this.db, claim, { state: 'failed', stage: 'finished', error: INTERRUPTED, finished_at: now() })) await this.removeAudio(id);
      else await this.storage.delete(keys.failedJobAudio(id)).catch(this.log);
      return;
    }
    const live: LiveJob = { job, userId, claim, controller: new AbortController(), listeners: new Set(), finished: Promise.resolve(), percentWrittenAt: 0, writes: Promise.resolve() };
    this.live.set(id, live);
    const run = this.run(live, options, context.signal);
    live.finished = run.then(
      () => undefined,
      () => undefined,
    );
    await run;
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
      live.writes = live.writes
        .catch(() => undefined)
        .then(async () => {
          if (!(await updateClaimedJob(this.db, live.claim, changes))) live.controller.abort(new Lost('the job was cancelled or taken over'));
        });
      await live.writes;
      // A job leaving the line moves the others up.
      if (changes.state && changes.state !== 'queued') this.queueMoved();
    }
  }

  private progress(live: LiveJob, fraction: number, stage: TranscriptionJob['stage']) {
    const percent = Math.min(99, Math.floor(fraction * 100));
    if (percent === live.job.percent && stage === live.job.stage) return;
    const write = stage !== live.job.stage || Date.now() - live.percentWrittenAt >= PERCENT_WRITE_MS;
    void this.change(live, { percent, stage }, write).catch(this.log);
  }

  /**
   * The line moved (the local slot, or a job started or ended here): a job waiting for the slot again is queued, and
   * the places of the jobs running here are read again from the rows; listeners hear those that changed.
   */
  private queueMoved() {
    for (const live of this.live.values()) {
      if (localSlot.position(live.job.id) !== undefined && live.job.state !== 'queued') void this.change(live, { state: 'queued', stage: 'queued' }).catch(this.log);
    }
    void this.readPositions().catch(this.log);
  }

  private async readPositions() {
    const lives = [...this.live.values()];
    const positions = await queuePositions(this.db, lives.map((live) => live.job.id));
    for (const live of lives) {
      const position = live.job.state === 'queued' ? (positions.get(live.job.id) ?? null) : null;
      if (position === live.job.queue_position || this.live.get(live.job.id) !== live) continue;
      live.job.queue_position = position;
      this.emit(live);
    }
  }

  /** Jobs with their place in line from the rows (the same on every node); null for those not queued. */
  private async withPositions(jobs: TranscriptionJob[]): Promise<TranscriptionJob[]> {
    const positions = await queuePositions(this.db, jobs.filter((job) => job.state === 'queued').map((job) => job.id));
    return jobs.map((job) => ({ ...job, queue_position: job.state === 'queued' ? (positions.get(job.id) ?? null) : null }));
  }

  /** Ends the job with a final state, when this run still holds it; the listeners hear the event. */
  private async finish(live: LiveJob, changes: JobChanges, event: (job: TranscriptionJob) => TranscriptionJobEvent): Promise<boolean> {
    await live.writes.catch(() => undefined);
    if (!(await updateClaimedJob(this.db, live.claim, changes))) return false;
    Object.assign(live.job, changes);
    this.emit(live, event({ ...live.job }));
    return true;
  }

  private async run(live: LiveJob, options: JobOptions, stopping: AbortSignal): Promise<void> {
    const { id } = live.job;
    const signal = AbortSignal.any([stopping, live.controller.signal]);
    const workDir = path.join(this.scratchDir, String(id));
    let kept: StoredRecording | null = null;
    let stored = false;
    let ended = false;
    try {
      await mkdirPrivate(workDir);
      const key = keys.audioJob(id);
      let done: JobChanges = {};
      const transcription = await this.storage.withLocalCopy(key, (file) => {
        const request: TranscribeRequest = {
          userId: live.userId,
          jobId: id,
          fileSize: live.job.file_size,
          filePath: file,
          filename: live.job.filename,
          audio: live.job.audio,
          language: options.language ?? undefined,
          speakersRequested: options.speakers_requested,
          channelNames: options.channel_names ?? undefined,
          speakerCount: options.speaker_count ?? undefined,
          allowCloud: options.allow_cloud,
          workDir,
          modelDirs: this.modelDirs,
          quality: 'accurate',
          signal,
          onProgress: (fraction, stage) => this.progress(live, fraction, stage),
          keepRecording: async () => (kept = await keepRecording(this.storage, { key, file }, live.job.audio, this.log, signal)),
          // Stored once: with the conditional update that ends the job, or not at all.
          store: async (insert) => {
            // Before the transaction: SQLite has one connection, which the transaction holds.
            await live.writes.catch(() => undefined);
            return this.db.transaction(async (trx) => {
              const transcriptionId = await insert(trx);
              done = { state: 'done', stage: 'finished', percent: 100, transcription_id: transcriptionId, finished_at: now(), ...(live.job.started_at ? {} : { started_at: now() }) };
              if (!(await updateClaimedJob(trx, live.claim, done))) throw new Lost('the job was cancelled or taken over');
              return transcriptionId;
            });
          },
          // A local-whisper route turns the job "running" once it holds the local slot; any other route at once.
          onRoute: (route) =>
            void this.change(live, { route, percent: 0, ...(route.provider !== 'local-whisper' && { state: 'running', stage: 'uploading', started_at: live.job.started_at ?? now() }) }).catch(this.log),
          holdingLocalSlot: async (work) => {
            const release = await localSlot.acquire(id, signal);
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
        return transcribe(this.db, request);
      });
      stored = true;
      ended = true;
      Object.assign(live.job, done);
      await transcribed(this.db, live.userId, transcription, this.log);
      this.emit(live, { type: 'done', job: { ...live.job }, transcription_id: transcription.id });
    } catch (err) {
      if (!stored && kept) await this.storage.delete(keys.recording((kept as StoredRecording).recording)).catch(this.log);
      const state = await jobState(this.db, id);
      if (state === 'cancelled') {
        ended = true;
        Object.assign(live.job, { state: 'cancelled', stage: 'finished', queue_position: null });
        this.emit(live, { type: 'cancelled', job: { ...live.job } });
        return;
      }
      if (state === undefined || isFinished({ state })) return;
      if (stopping.aborted) throw new Interrupted('the node is stopping');
      // Another node holds the job now: it writes the row.
      if (signal.aborted || err instanceof Lost) return;
      const final = err instanceof AppError || isNotFound(err) || live.claim.attempt >= RETRY_LIMIT;
      if (!(err instanceof AppError)) this.log(err);
      const error = toJobError(err);
      if (!final) {
        // The last error stays visible on the row while the job waits for its next run.
        await updateClaimedJob(this.db, live.claim, { state: 'queued', stage: 'queued', error });
        throw err;
      }
      await keepFailedRecording(this.storage, id, this.log);
      ended = await this.finish(live, { state: 'failed', stage: 'finished', error, finished_at: now() }, (job) => ({ type: 'error', job, error }));
    } finally {
      this.live.delete(id);
      live.listeners.clear();
      this.queueMoved();
      await fs.rm(workDir, { recursive: true, force: true }).catch(this.log);
      if (ended) await this.removeAudio(id);
      this.wake(id);
    }
  }

  private async removeAudio(id: number): Promise<void> {
    await this.storage.deletePrefix(keys.audioJobPrefix(id)).catch(this.log);
  }

  private wake(id: number) {
    for (const wake of this.waiters.get(id) ?? []) wake();
  }

  /** The caller's job, with its live percent and queue place when it runs here; another user's is a 404. */
  async get(userId: number, id: number): Promise<TranscriptionJob> {
    await this.ready.catch(() => undefined);
    const live = this.live.get(id);
    const job = live && live.userId === userId ? { ...live.job } : await findJob(this.db, userId, id);
    if (!job) throw notFound('Transcription job');
    return (await this.withPositions([job]))[0]!;
  }

  async list(userId: number, filter: { page: number; size: number; state?: TranscriptionJobState }): Promise<Page<TranscriptionJob>> {
    await this.ready.catch(() => undefined);
    const page = await listJobs(this.db, userId, filter);
    return { ...page, items: await this.withPositions(page.items.map((job) => (this.live.has(job.id) ? { ...this.live.get(job.id)!.job } : job))) };
  }

  /**
   * Stops the job from any node: taken out of the queue, or its run stopped (whisper.cpp killed) on whichever node
   * has it; nothing is stored. 409 when already finished.
   */
  async cancel(userId: number, id: number): Promise<TranscriptionJob> {
    const job = await this.get(userId, id);
    if (isFinished(job) || !(await cancelJob(this.db, id))) {
      const current = await this.get(userId, id);
      throw new AppError(409, AudioErrorCode.jobFinished, `This transcription job is already ${current.state}`);
    }
    await this.queue.cancel(JOB, String(id)).catch(this.log);
    const live = this.live.get(id);
    if (live) {
      live.controller.abort(new Lost('cancelled'));
      await live.finished;
    }
    // Also when no run has it (still waiting in the queue): a run elsewhere reads its own copy, if any.
    await this.removeAudio(id);
    this.wake(id);
    return this.get(userId, id);
  }

  /** Resolves once the job has ended, on this node or any other. */
  async settled(id: number): Promise<void> {
    for (;;) {
      const live = this.live.get(id);
      if (live) await live.finished;
      const state = await jobState(this.db, id);
      if (state === undefined || isFinished({ state })) {
        // Ended here: the run's last steps (the listeners of a new transcription) are done once it is gone.
        await this.live.get(id)?.finished;
        return;
      }
      await new Promise<void>((resolve) => {
        const set = this.waiters.get(id) ?? new Set();
        this.waiters.set(id, set);
        const wake = () => {
          clearTimeout(timer);
          set.delete(wake);
          if (!set.size) this.waiters.delete(id);
          resolve();
        };
        const timer = setTimeout(wake, WAIT_POLL_MS);
        set.add(wake);
      });
    }
  }

  /**
   * Calls `listener` with every change of a job running here and returns the unsubscribe function; undefined when
   * the job does not run in this process (finished, waiting in the queue, or run by another node).
   */
  subscribe(id: number, listener: (event: TranscriptionJobEvent) => void): (() => void) | undefined {
    const live = this.live.get(id);
    if (!live) return undefined;
    live.listeners.add(listener);
    return () => live.listeners.delete(listener);
  }

  /** The queue stops the runs (server/jobs/); this only stops following the local slot and the places in line. */
  async close(): Promise<void> {
    this.unsubscribeSlot();
    clearInterval(this.positionsTimer);
  }
}
