import type { Db } from '../db/knex.js';
import { paginate } from '../db/paginate.js';
import { now } from '../db/time.js';
import { parseJson, toNullableNumber, toNumber } from '../db/rows.js';
import type { Page } from '../../contract/envelope.js';
import type { AudioInfo, AudioRouteRef, TranscriptionJob, TranscriptionJobError, TranscriptionJobStage, TranscriptionJobState } from '../../contract/audio.js';

export interface JobOptions {
  language: string | null;
  speakers_requested: boolean;
  channel_names: string[] | null;
  allow_cloud: boolean;
  /** Speakers of a mono call (0: find out); absent on jobs made before it existed. */
  speaker_count?: number | null;
}

interface JobRow {
  id: number | string;
  user_id: number | string;
  state: TranscriptionJobState;
  stage: TranscriptionJobStage;
  percent: number | string;
  filename: string;
  file_size: number | string;
  audio: string;
  options: string;
  route: string | null;
  transcription_id: number | string | null;
  error: string | null;
  runner: string;
  attempts?: number | string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

const DEFAULT_OPTIONS: JobOptions = { language: null, speakers_requested: false, channel_names: null, allow_cloud: true };

export const toJob = (r: JobRow): TranscriptionJob => {
  const options = parseJson<JobOptions>(r.options, DEFAULT_OPTIONS);
  return {
    id: Number(r.id),
    state: r.state,
    stage: r.stage,
    percent: toNumber(r.percent),
    queue_position: null,
    filename: r.filename,
    file_size: toNumber(r.file_size),
    audio: parseJson<AudioInfo>(r.audio, { format: '', codec: '', channels: 0, sample_rate: 0, duration: 0 }),
    language: options.language,
    speakers_requested: options.speakers_requested,
    channel_names: options.channel_names,
    allow_cloud: options.allow_cloud,
    route: parseJson<AudioRouteRef | null>(r.route, null),
    transcription_id: toNullableNumber(r.transcription_id),
    error: parseJson<TranscriptionJobError | null>(r.error, null),
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
  };
};

export async function insertJob(db: Db, job: { user_id: number; filename: string; file_size: number; audio: AudioInfo; options: JobOptions; runner: string }): Promise<TranscriptionJob> {
  const row = {
    ...job,
    state: 'queued',
    stage: 'queued',
    percent: 0,
    audio: JSON.stringify(job.audio),
    options: JSON.stringify(job.options),
    created_at: now(),
  };
  const [inserted] = await db('audio_jobs').insert(row).returning('id');
  return toJob({ ...row, id: (inserted as { id: number }).id, route: null, transcription_id: null, error: null, started_at: null, finished_at: null } as JobRow);
}

export type JobChanges = Partial<Pick<TranscriptionJob, 'state' | 'stage' | 'percent' | 'route' | 'transcription_id' | 'error' | 'started_at' | 'finished_at'>>;

export async function updateJob(db: Db, id: number, changes: JobChanges): Promise<void> {
  await db('audio_jobs').where({ id }).update(serialise(changes));
}

/** Only the owner's: another user's job is not found. */
export async function findJob(db: Db, userId: number, id: number): Promise<TranscriptionJob | undefined> {
  const row = await db<JobRow>('audio_jobs').where({ id, user_id: userId }).first();
  return row && toJob(row);
}

export async function listJobs(db: Db, userId: number, filter: { page: number; size: number; state?: TranscriptionJobState }): Promise<Page<TranscriptionJob>> {
  const base = db('audio_jobs').where({ user_id: userId });
  if (filter.state) base.where({ state: filter.state });
  return paginate(base, filter, (q) => q.select('*').orderBy('id', 'desc'), toJob);
}

const UNFINISHED: TranscriptionJobState[] = ['queued', 'running'];

/** A run's hold on a job: the node and the run's number (audio_jobs.attempts). */
export interface JobClaim {
  id: number;
  runner: string;
  attempt: number;
}

export interface ClaimedJob {
  claim: JobClaim;
  job: TranscriptionJob;
  userId: number;
  options: JobOptions;
}

const serialise = (changes: JobChanges) => {
  const { route, error, ...plain } = changes;
  return { ...plain, ...(route !== undefined && { route: route && JSON.stringify(route) }), ...(error !== undefined && { error: error && JSON.stringify(error) }) };
};

/**
 * Takes the job up for a run on `runner`: raises its run count unless it is finished or another run raised it in
 * between, and puts its progress back to the start. Undefined when the job is gone, finished, or claimed by another.
 */
export async function claimJob(db: Db, id: number, runner: string): Promise<ClaimedJob | undefined> {
  const row = await db<JobRow>('audio_jobs').where({ id }).first();
  if (!row || !UNFINISHED.includes(row.state)) return undefined;
  const attempt = toNumber(row.attempts ?? 0) + 1;
  const reset: JobChanges = { state: 'queued', stage: 'queued', percent: 0 };
  const won = await db('audio_jobs')
    .where({ id, attempts: toNumber(row.attempts ?? 0) })
    .whereIn('state', UNFINISHED)
    .update({ ...serialise(reset), attempts: attempt, runner });
  if (!won) return undefined;
  return { claim: { id, runner, attempt }, job: { ...toJob(row), ...reset }, userId: toNumber(row.user_id), options: parseJson<JobOptions>(row.options, DEFAULT_OPTIONS) };
}

/** Writes the changes while the claim still holds the unfinished job; false when it does not (cancelled, taken over). */
export async function updateClaimedJob(db: Db, claim: JobClaim, changes: JobChanges): Promise<boolean> {
  const count = await db('audio_jobs').where({ id: claim.id, runner: claim.runner, attempts: claim.attempt }).whereIn('state', UNFINISHED).update(serialise(changes));
  return count > 0;
}

/** Cancels the unfinished job (from any node); false when it had already finished. */
export async function cancelJob(db: Db, id: number): Promise<boolean> {
  const count = await db('audio_jobs').where({ id }).whereIn('state', UNFINISHED).update({ state: 'cancelled', stage: 'finished', finished_at: now() });
  return count > 0;
}

/** The state of a job of any user (for a node waiting on it or following it). */
export async function jobState(db: Db, id: number): Promise<TranscriptionJobState | undefined> {
  const row = await db<JobRow>('audio_jobs').where({ id }).first('state');
  return row?.state;
}

/**
 * The place in line of each of these jobs that is queued: 1 + the jobs of any user queued before it (a smaller id)
 * and not yet running or finished. Read from the shared rows, so every node of a cluster answers the same.
 */
export async function queuePositions(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const ahead = db('audio_jobs as before').where('before.state', 'queued').andWhere('before.id', '<', db.ref('waiting.id')).count({ n: '*' });
  const rows = (await db('audio_jobs as waiting').whereIn('waiting.id', ids).andWhere('waiting.state', 'queued').select('waiting.id', ahead.as('ahead'))) as { id: number | string; ahead: number | string }[];
  return new Map(rows.map((row) => [toNumber(row.id), toNumber(row.ahead) + 1]));
}

/** Jobs not finished yet, oldest first: at start the laptop takes them up again. */
export async function unfinishedJobIds(db: Db): Promise<number[]> {
  return (await db('audio_jobs').whereIn('state', UNFINISHED).orderBy('id').pluck('id')).map(Number);
}

/** Of these job ids, those whose job is finished or gone (their stored audio can go). */
export async function endedJobIds(db: Db, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const open = new Set((await db('audio_jobs').whereIn('id', ids).whereIn('state', UNFINISHED).pluck('id')).map(Number));
  return ids.filter((id) => !open.has(id));
}
