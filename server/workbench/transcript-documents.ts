// Transcriptions as documents of a workbench exchange, and the rule of note 4.11: a step that needs speakers refuses
// a transcript without speaker labels, with an explicit error, instead of producing an answer that pretends to know
// who said what.
import type { Db } from '../db/knex.js';
import type { Skill, TaskDocument } from '../../contract/workbench.js';
import type { Transcription } from '../../contract/audio.js';
import { WorkbenchErrorCode } from '../../contract/workbench.js';
import { AppError, notFound } from '../http/errors.js';
import { findTranscription } from '../audio/transcriptions.repository.js';
import { skillConfig } from './definitions.service.js';
import { callFigures, callFiguresMarkdown } from '../audio/call-metrics.js';

/** A document as the request gives it: its text, or the caller's transcription by id. */
export type DocumentRef = TaskDocument | { transcription_id: number; name?: string };

export interface ResolvedDocument extends Omit<TaskDocument, 'transcription'> {
  /** The transcription it came from, if any. */
  transcription?: Transcription;
}

/** The transcript as text: one line per segment, led by its speaker label when the route gave one. */
export function transcriptText(t: Transcription): string {
  if (!t.has_speakers || !t.segments.length) return t.text;
  return t.segments.map((s) => (s.speaker ? `${s.speaker}: ${s.text.trim()}` : s.text.trim())).join('\n');
}

export async function resolveDocuments(db: Db, userId: number, refs: DocumentRef[]): Promise<ResolvedDocument[]> {
  return Promise.all(
    refs.map(async (ref): Promise<ResolvedDocument> => {
      if (!('transcription_id' in ref)) return { name: ref.name, content: ref.content };
      const transcription = await findTranscription(db, userId, ref.transcription_id);
      if (!transcription) throw notFound(`Transcription ${ref.transcription_id}`);
      return { name: ref.name ?? transcription.filename, content: transcriptText(transcription), transcription };
    }),
  );
}

/** A document as the run stores it: a transcript keeps where it came from (route, left_local, speakers). */
export function documentOfRun({ name, content, transcription: t }: ResolvedDocument): TaskDocument {
  if (!t) return { name, content };
  const { id, route, left_local, has_speakers, capability_degraded, capability_zh } = t;
  return { name, content, transcription: { id, route, left_local, has_speakers, capability_degraded, capability_zh } };
}

/** The deterministic figures of every transcript among the documents, as markdown (call_analysis). */
export function callFiguresOf(documents: ResolvedDocument[]): string {
  return documents
    .filter((d) => d.transcription)
    .map((d) => callFiguresMarkdown(d.name, callFigures(d.transcription!.segments)))
    .join('\n\n');
}

/** A skill whose config says `requires_speakers: true` (the built-in call_review does). */
export const requiresSpeakers = (skill: Skill): boolean => skillConfig(skill).requires_speakers === true;

/** 400 workbench.speakers_required unless every document is a transcript that carries speaker labels. */
export function assertSpeakerLabels(skill: Skill, documents: ResolvedDocument[]): void {
  const lacking = documents.filter((d) => !d.transcription?.has_speakers);
  if (!lacking.length) return;
  const why = lacking.map((d) =>
    d.transcription
      ? `transcription ${d.transcription.id} ("${d.name}") has no speaker labels (route "${d.transcription.route.name}" did not separate speakers)`
      : `"${d.name}" is not a transcription`,
  );
  throw new AppError(
    400,
    WorkbenchErrorCode.speakersRequired,
    `The skill "${skill.name}" needs transcripts with speaker labels: ${why.join('; ')}. Transcribe the audio again with speaker separation on a route that provides it, or choose a skill that does not need speakers.`,
    { documents: lacking.map((d) => ({ name: d.name, transcription_id: d.transcription?.id ?? null })) },
  );
}
