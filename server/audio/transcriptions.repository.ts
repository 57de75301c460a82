import type { Db } from '../db/knex.js';
import { paginate } from '../db/paginate.js';
import type { Page } from '../../contract/envelope.js';
import type { AudioInfo, AudioRouteRef, RepMatch, SpeakerMethod, Transcription, TranscriptionAttempt, TranscriptionSummary, TranscriptSegment } from '../../contract/audio.js';
import { parseJson, toBool, toNullableNumber, toNumber } from '../db/rows.js';

type Stored = Omit<Transcription, 'id' | 'has_recording' | 'revision' | 'latest_revision' | 'speaker_names' | 'revised_at'>;
type NewTranscription = Stored & { user_id: number; recording: string | null; recording_mime: string | null };

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
  speaker_method: string | null;
  rep_match: string | null;
  speech_seconds: number | string | null;
  revision: number | string;
}

interface RevisionRow {
  revision: number | string;
  text: string;
  segments: string;
  speaker_names: string;
  created_at: string;
}

const SUMMARY_COLUMNS = [
  'id',
  'filename',
  'file_size',
  'audio',
  'text',
  'language',
  'speakers_requested',
  'has_speakers',
  'route',
  'left_local',
  'capability_degraded',
  'capability_zh',
  'job_id',
  'recording',
  'created_at',
  'speaker_method',
  'rep_match',
  'speech_seconds',
  'revision',
];

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
  speaker_method: (r.speaker_method as SpeakerMethod | null) ?? null,
  rep_match: parseJson<RepMatch | null>(r.rep_match, null),
  speech_seconds: toNullableNumber(r.speech_seconds),
  revision: toNumber(r.revision ?? 1),
});

/** The transcription as recognised (revision 1), or with the text, segments and names of a later revision. */
function toTranscription(r: TranscriptionRow, revision?: RevisionRow): Transcription {
  const summary = toSummary(r);
  const segments = parseJson<TranscriptSegment[]>(revision ? revision.segments : r.segments, []);
  return {
    ...summary,
    text: revision ? revision.text : r.text,
    segments,
    has_speakers: revision ? segments.some((s) => s.speaker !== undefined) : summary.has_speakers,
    attempts: parseJson<TranscriptionAttempt[]>(r.attempts, []),
    revision: revision ? toNumber(revision.revision) : 1,
    latest_revision: summary.revision,
    speaker_names: revision ? parseJson<Record<string, string>>(revision.speaker_names, {}) : {},
    revised_at: revision ? revision.created_at : r.created_at,
  };
}

export async function insertTranscription(db: Db, t: NewTranscription): Promise<number> {
  const [row] = await db('audio_transcriptions')
    .insert({
      ...t,
      audio: t.audio && JSON.stringify(t.audio),
      segments: JSON.stringify(t.segments),
      route: JSON.stringify(t.route),
      attempts: JSON.stringify(t.attempts),
      rep_match: t.rep_match && JSON.stringify(t.rep_match),
      revision: 1,
    })
    .returning('id');
  return Number((row as { id: number }).id);
}

/**
 * A transcription at a revision (the latest when none is asked for; 1 is the recognised original), whoever owns it;
 * undefined when the transcription or that revision does not exist. The one way other domains read a transcript
 * (coaching, compliance): callers check ownership themselves.
 */
export async function readTranscriptRevision(db: Db, id: number, revision?: number): Promise<Transcription | undefined> {
  const row = await db<TranscriptionRow>('audio_transcriptions').where({ id }).first();
  if (!row) return undefined;
  return atRevision(db, row, revision);
}

async function atRevision(db: Db, row: TranscriptionRow, revision?: number): Promise<Transcription | undefined> {
  const wanted = revision ?? toNumber(row.revision ?? 1);
  if (wanted === 1) return toTranscription(row);
  const found: RevisionRow | undefined = await db('audio_transcript_revisions').where({ transcription_id: row.id, revision: wanted }).first();
  return found && toTranscription(row, found);
}

/** Only the owner's: another user's transcription is not found. The latest revision unless one is asked for. */
export async function findTranscription(db: Db, userId: number, id: number, revision?: number): Promise<Transcription | undefined> {
  const row = await db<TranscriptionRow>('audio_transcriptions').where({ id, user_id: userId }).first();
  return row && atRevision(db, row, revision);
}

/** The owner of a transcription, or undefined when there is none. */
export async function transcriptionOwner(db: Db, id: number): Promise<number | undefined> {
  const row: { user_id: number | string } | undefined = await db('audio_transcriptions').where({ id }).first('user_id');
  return row && Number(row.user_id);
}

/**
 * Stores a new revision when `baseRevision` is still the latest; returns its number, or undefined when another
 * revision was saved in between (the caller answers 409).
 */
export async function insertRevision(
  db: Db,
  input: { id: number; userId: number; baseRevision: number; text: string; segments: TranscriptSegment[]; speakerNames: Record<string, string>; createdAt: string },
): Promise<number | undefined> {
  return db.transaction(async (trx) => {
    const next = input.baseRevision + 1;
    // The compare-and-set on the row is what serialises two saves from the same base: only one updates it.
    const updated = await trx('audio_transcriptions').where({ id: input.id, revision: input.baseRevision }).update({ revision: next });
    if (!updated) return undefined;
    await trx('audio_transcript_revisions').insert({
      transcription_id: input.id,
      revision: next,
      text: input.text,
      segments: JSON.stringify(input.segments),
      speaker_names: JSON.stringify(input.speakerNames),
      user_id: input.userId,
      created_at: input.createdAt,
    });
    return next;
  });
}

/** The caller's, newest first. */
export async function listTranscriptions(db: Db, userId: number, paging: { page: number; size: number }): Promise<Page<TranscriptionSummary>> {
  const base = db('audio_transcriptions').where({ user_id: userId });
  return paginate(base, paging, (q) => q.select(SUMMARY_COLUMNS).orderBy('id', 'desc'), toSummary);
}
