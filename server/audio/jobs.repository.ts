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
  const { route, error, ...plain } = changes;
  await db('audio_jobs')
    .where({ id })
    .update({ ...plain, ...(route !== undefined && { route: route && JSON.stringify(route) }), ...(error !== undefined && { error: error && JSON.stringify(error) }) });
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

/** Jobs this runner left queued or running when it stopped: they fail with the reason given. Returns their ids. */
export async function failInterruptedJobs(db: Db, runner: string, error: TranscriptionJobError): Promise<number[]> {
  const ids = (await db('audio_jobs').where({ runner }).whereIn('state', ['queued', 'running']).pluck('id')).map(Number);
  if (ids.length) {
    await db('audio_jobs')
      .whereIn('id', ids)
      .update({ state: 'failed', stage: 'finished', error: JSON.stringify(error), finished_at: now() });
  }
  return ids;
}
