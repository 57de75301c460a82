import type { Db } from '../db/knex.js';
import { paginate } from '../db/paginate.js';
import type { Page } from '../../contract/envelope.js';
import type { AudioInfo, AudioRouteRef, Transcription, TranscriptionAttempt, TranscriptionSummary, TranscriptSegment } from '../../contract/audio.js';
import { parseJson, toBool, toNullableNumber, toNumber } from '../db/rows.js';

type NewTranscription = Omit<Transcription, 'id' | 'has_recording'> & { user_id: number; recording: string | null; recording_mime: string | null };

interface TranscriptionRow {
  id: number | string;
  user_id: number | string;
  filename: string;
  file_size: number | string;
  audio: string | null;
  text: string;
  language: string;
  segments: string;
  speakers_requested: boolean | number;
  has_speakers: boolean | number;
  route: string;
  left_local: boolean | number;
  capability_degraded: boolean | number;
  capability_zh: string;
  attempts: string;
  job_id: number | string | null;
  recording: string | null;
  created_at: string;
}

const SUMMARY_COLUMNS = ['id', 'filename', 'file_size', 'audio', 'text', 'language', 'speakers_requested', 'has_speakers', 'route', 'left_local', 'capability_degraded', 'capability_zh', 'job_id', 'recording', 'created_at'];

const UNKNOWN_ROUTE: AudioRouteRef = { id: 0, name: '', provider: 'openai-compatible', is_local: false };

const toSummary = (r: TranscriptionRow): TranscriptionSummary => ({
  id: Number(r.id),
  filename: r.filename,
  file_size: toNumber(r.file_size),
  audio: parseJson<AudioInfo | null>(r.audio, null),
  text: r.text,
  language: r.language,
  speakers_requested: toBool(r.speakers_requested),
  has_speakers: toBool(r.has_speakers),
  route: parseJson(r.route, UNKNOWN_ROUTE),
  left_local: toBool(r.left_local),
  capability_degraded: toBool(r.capability_degraded),
  capability_zh: r.capability_zh,
  job_id: toNullableNumber(r.job_id),
  has_recording: r.recording !== null && r.recording !== undefined,
  created_at: r.created_at,
});

const toTranscription = (r: TranscriptionRow): Transcription => ({
  ...toSummary(r),
  segments: parseJson<TranscriptSegment[]>(r.segments, []),
  attempts: parseJson<TranscriptionAttempt[]>(r.attempts, []),
});

export async function insertTranscription(db: Db, t: NewTranscription): Promise<number> {
  const [row] = await db('audio_transcriptions')
    .insert({ ...t, audio: t.audio && JSON.stringify(t.audio), segments: JSON.stringify(t.segments), route: JSON.stringify(t.route), attempts: JSON.stringify(t.attempts) })
    .returning('id');
  return Number((row as { id: number }).id);
}

/** Only the owner's: another user's transcription is not found. */
export async function findTranscription(db: Db, userId: number, id: number): Promise<Transcription | undefined> {
  const row = await db<TranscriptionRow>('audio_transcriptions').where({ id, user_id: userId }).first();
  return row && toTranscription(row);
}

/** The caller's, newest first. */
export async function listTranscriptions(db: Db, userId: number, paging: { page: number; size: number }): Promise<Page<TranscriptionSummary>> {
  const base = db('audio_transcriptions').where({ user_id: userId });
  return paginate(base, paging, (q) => q.select(SUMMARY_COLUMNS).orderBy('id', 'desc'), toSummary);
}
