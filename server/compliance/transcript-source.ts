// Where an inspection reads a call from: the transcription's segments and speakers at a revision, through the audio
// domain's reader. Revision 1 is the recognised original; each save in the transcript editor adds one.
import type { Db } from '../db/knex.js';
import type { Transcription, TranscriptSegment } from '../../contract/audio.js';
import { ComplianceErrorCode } from '../../contract/compliance.js';
import { AppError, notFound } from '../http/errors.js';
import { findTranscription } from '../audio/transcriptions.repository.js';

export interface TranscriptAtRevision {
  transcription: Transcription;
  revision: number;
  segments: TranscriptSegment[];
  has_speakers: boolean;
}

/** The owner's transcription at `revision` (default: the newest); another user's is a 404 like a missing one. */
export async function readTranscript(db: Db, ownerId: number, transcriptionId: number, revision?: number): Promise<TranscriptAtRevision> {
  const latest = await findTranscription(db, ownerId, transcriptionId);
  if (!latest) throw notFound('Transcription');
  const wanted = revision ?? latest.latest_revision;
  const transcription = wanted === latest.revision ? latest : wanted >= 1 && wanted <= latest.latest_revision ? await findTranscription(db, ownerId, transcriptionId, wanted) : undefined;
  if (!transcription) {
    throw new AppError(400, ComplianceErrorCode.unknownRevision, `Transcription ${transcriptionId} has no revision ${wanted} (revisions 1–${latest.latest_revision})`, { revisions: latest.latest_revision });
  }
  return { transcription, revision: transcription.revision, segments: transcription.segments, has_speakers: transcription.has_speakers };
}
