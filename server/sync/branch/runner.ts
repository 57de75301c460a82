// Branch: one sync run (push, pull, files), one at a time, and the periodic schedule with backoff while the central
// server does not answer (docs/sync.md, "Schedule and status").
import type { Storage } from '../../storage/index.js';
import type { BranchFiles } from './files.js';
import type { Knex } from 'knex';
import type { z } from 'zod';
import type { PulledChange, SyncIndicator, SyncRunSummary, SyncState, SyncStatus } from '../../../contract/sync.js';
import { SyncErrorCode } from '../../../contract/sync.js';
import { AppError } from '../../http/errors.js';
import { now } from '../../db/time.js';
import { callCentral, CentralError, checkCentral } from './central-client.js';
import { centralOf, readEnrolment, saveEnrolment, updateEnrolment, type Enrolled } from './state.js';
import { enqueueAll, markSent, nextChanges, pendingUp, skipExisting, type Outgoing } from './outbox.js';
import { uploadMediaFiles } from './uploads.js';
import { applyPage } from './apply.js';
import { EnrolmentAnswer, PullAnswer, PushAnswer } from './answers.js';
import { downloadFiles, pendingFiles, type Progress } from './files.js';
import { appVersion } from '../../system/update-status.js';
import { recordSyncBatch } from '../../metrics/metrics.js';

const PUSH_BATCH = 500;
/** The central server takes JSON bodies up to 2 MB: a batch of long exams is halved until it fits well within. */
const MAX_PUSH_BYTES = 1_500_000;
const PULL_PAGE = 500;
const DEFAULT_INTERVAL_S = 180;
const FIRST_BACKOFF_S = 30;
const MAX_BACKOFF_S = 1800;

export interface EnrolInput {
  central_url: string;
  enrolment_token: string;
  ca_cert?: string | null;
}

export class BranchSync {
  private state: SyncState = 'idle';
  private pendingDown = 0;
  private running: Promise<SyncRunSummary> | undefined;
  private nextRunAt: Date | undefined;
  private failures = 0;
  private stopped = false;
  private readonly progress: Progress = new Map();

  constructor(
    private readonly db: Knex,
    dataDir: string,
    private readonly intervalS = DEFAULT_INTERVAL_S,
    storage: Storage,
  ) {
    this.files = { dataDir, storage };
  }

  /** DATA_DIR (for partial downloads) and the storage the media are kept in. */
  private readonly files: BranchFiles;

  /** Starts the schedule when the branch is enrolled. */
  async start(): Promise<void> {
    if (await readEnrolment(this.db)) this.schedule(this.intervalS);
  }

  stop(): void {
    this.stopped = true;
    this.nextRunAt = undefined;
  }

  async indicator(): Promise<SyncIndicator> {
    const e = await readEnrolment(this.db);
    return { enrolled: !!e, state: this.state, last_success_at: e?.last_success_at ?? null };
  }

  async status(): Promise<SyncStatus> {
    const e = await readEnrolment(this.db);
    if (e) await enqueueAll(this.db, e.device_gid);
    return {
      central_url: e?.central_url ?? null,
      device_id: e?.device_id ?? null,
      state: this.state,
      last_success_at: e?.last_success_at ?? null,
      pending_up: await pendingUp(this.db),
      pending_down: this.pendingDown + (await pendingFiles(this.db)),
      last_error: e?.last_error ?? null,
      downloads: [...this.progress].map(([gid, p]) => ({ gid, ...p })),
      next_run_at: this.nextRunAt?.toISOString() ?? null,
    };
  }

  /** Exchanges an enrolment token for a device credential; the first sync is `run` or the schedule's. */
  async enrol(input: EnrolInput): Promise<void> {
    const url = checkCentral(input.central_url, input.ca_cert);
    const ca = input.ca_cert || null;
    let enrolment: z.output<typeof EnrolmentAnswer>;
    try {
      enrolment = await callCentral({ url, ca }, 'POST', '/api/sync/enrol', EnrolmentAnswer, { enrolment_token: input.enrolment_token, app_version: appVersion() });
    } catch (err) {
      throw toAppError(err);
    }
    await this.running?.catch(() => undefined);
    const previous = await readEnrolment(this.db);
    await this.db.transaction(async (trx) => {
      // Enrolling again with the same central server (the device was revoked, a new token) keeps what still waits to
      // go up and adds what was made meanwhile. A new central server starts with what is made after its enrolment:
      // records were graded against the other server's bank.
      if (previous?.central_url === url) await enqueueAll(trx, previous.device_gid);
      await saveEnrolment(trx, { central_url: url, ca_cert: ca, device_id: enrolment.device_id, device_gid: enrolment.device_gid, credential: enrolment.credential });
      if (previous?.central_url !== url) {
        await trx('sync_outbox').delete();
        await skipExisting(trx);
      }
    });
    this.state = 'idle';
    this.failures = 0;
    this.schedule(this.intervalS);
  }

  /** Syncs now; a run already going is waited for first. */
  async run(): Promise<SyncRunSummary> {
    const previous = this.running;
    const next = (async () => {
      await previous?.catch(() => undefined);
      return this.runOnce();
    })();
    this.running = next;
    try {
      return await next;
    } finally {
      if (this.running === next) this.running = undefined;
    }
  }

  private async runOnce(): Promise<SyncRunSummary> {
    const e = await readEnrolment(this.db);
    if (!e) throw new AppError(409, SyncErrorCode.notEnrolled, 'This laptop is not enrolled with a central server');
    const started = Date.now();
    this.state = 'running';
    this.nextRunAt = undefined;
    try {
      const summary = { ...(await this.push(e)), ...(await this.pull(e)), files: await downloadFiles(this.db, centralOf(e), this.files, this.progress) };
      await updateEnrolment(this.db, { last_success_at: now(), last_error: null });
      this.state = 'idle';
      this.failures = 0;
      this.schedule(this.intervalS);
      return { ...summary, duration_ms: Date.now() - started };
    } catch (err) {
      const unreachable = err instanceof CentralError && err.unreachable;
      this.state = unreachable ? 'offline' : 'error';
      await updateEnrolment(this.db, { last_error: (err as Error).message });
      this.failures++;
      this.schedule(unreachable ? Math.min(FIRST_BACKOFF_S * 2 ** (this.failures - 1), MAX_BACKOFF_S) : this.intervalS);
      throw toAppError(err);
    }
  }

  private async push(e: Enrolled): Promise<{ pushed: number; conflicts: number }> {
    await enqueueAll(this.db, e.device_gid);
    await uploadMediaFiles(this.db, centralOf(e), this.files.storage);
    let pushed = 0;
    let conflicts = 0;
    // The next batch is read and built while the central server stores the current one.
    let building = nextBatch(this.db, 0);
    for (;;) {
      const changes = await building;
      if (!changes.length) return { pushed, conflicts };
      building = nextBatch(this.db, changes.at(-1)!.seq);
      building.catch(() => undefined); // awaited at the next turn; a failure of this push comes first
      const { results } = await callCentral(centralOf(e), 'POST', '/api/sync/push', PushAnswer, { changes: changes.map((c) => c.change) });
      recordSyncBatch('push', changes.length);
      await markSent(this.db, results);
      pushed += results.filter((r) => r.outcome === 'accepted').length;
      conflicts += results.filter((r) => r.outcome === 'refused' || r.outcome === 'conflict').length;
    }
  }

  private async pull(e: Enrolled): Promise<{ pulled: number }> {
    let cursor = e.cursor ?? '';
    let pulled = 0;
    for (;;) {
      const page = await callCentral(centralOf(e), 'GET', `/api/sync/pull?limit=${PULL_PAGE}&cursor=${encodeURIComponent(cursor)}`, PullAnswer);
      // A page that says more follows must bring changes and move on: else the run would never end.
      if (page.more && (!page.changes.length || page.cursor === cursor)) {
        throw new CentralError('The central server says more changes wait but sent none, or did not move on: is the URL right?', false);
      }
      pulled += await applyPulledPage(this.db, this.files, page.changes, page.cursor);
      recordSyncBatch('pull', page.changes.length);
      cursor = page.cursor;
      this.pendingDown = page.remaining;
      if (!page.more) return { pulled };
    }
  }

  /** The next periodic run's time; the app's scheduled job `schedule.sync-branch` starts it (runIfDue). */
  private schedule(seconds: number): void {
    if (this.stopped) return;
    this.nextRunAt = new Date(Date.now() + seconds * 1000);
  }

  /** Runs the periodic sync when its time has come (called by the scheduled job each second). */
  async runIfDue(): Promise<void> {
    if (this.stopped || this.running || !this.nextRunAt || Date.now() < +this.nextRunAt) return;
    await this.run().catch(() => undefined);
  }
}

/**
 * Applies a pulled page; one whose changes cannot be stored here is refused whole (its transaction rolls back) and
 * reported in plain words, not as the database's error.
 */
async function applyPulledPage(db: Knex, files: BranchFiles, changes: PulledChange[], cursor: string): Promise<number> {
  try {
    return await applyPage(db, files, changes, cursor);
  } catch (err) {
    if (err instanceof AppError || err instanceof CentralError) throw err;
    // A driver's message ends with its own reason after the statement ("insert into … - SQLITE_CONSTRAINT: …").
    const reason = String((err as Error).message ?? err).split(' - ').at(-1);
    throw new CentralError(`A change from the central server could not be stored on this laptop, so none of its page was: ${reason}`, false);
  }
}

/** Up to PUSH_BATCH changes after `afterSeq`, halved until the batch is well within the central server's body limit. */
async function nextBatch(db: Knex, afterSeq: number): Promise<Outgoing[]> {
  let batch = await nextChanges(db, PUSH_BATCH, afterSeq);
  while (batch.length > 1 && JSON.stringify(batch).length > MAX_PUSH_BYTES) batch = batch.slice(0, Math.ceil(batch.length / 2));
  return batch;
}

/** What the branch admin sees: a network failure is 502 offline, a refusal keeps the central server's reason. */
function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof CentralError) {
    if (err.status === 401 || err.status === 400 || err.status === 404) {
      return new AppError(err.code?.startsWith('sync.') ? 400 : 502, err.code?.startsWith('sync.') ? err.code : SyncErrorCode.centralRefused, err.message);
    }
    return new AppError(502, err.unreachable ? SyncErrorCode.centralUnreachable : SyncErrorCode.centralRefused, err.message);
  }
  throw err;
}
