// Where an inspection reads a call from: the transcription's segments and speakers at a revision. Revision 1 is the
// transcription as stored; edited revisions (the transcript editor) will be read here too, through the audio
// domain's reader, so this one module is all that changes when they arrive.
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

/** The newest revision of the transcription. */
export const latestRevision = async (_db: Db, _transcriptionId: number): Promise<number> => 1;

/** The owner's transcription at `revision` (default: the newest); another user's is a 404 like a missing one. */
export async function readTranscript(db: Db, ownerId: number, transcriptionId: number, revision?: number): Promise<TranscriptAtRevision> {
  const transcription = await findTranscription(db, ownerId, transcriptionId);
  if (!transcription) throw notFound('Transcription');
  const latest = await latestRevision(db, transcriptionId);
  const wanted = revision ?? latest;
  if (wanted < 1 || wanted > latest) {
    throw new AppError(400, ComplianceErrorCode.unknownRevision, `Transcription ${transcriptionId} has no revision ${wanted} (revisions 1–${latest})`, { revisions: latest });
  }
  return { transcription, revision: wanted, segments: transcription.segments, has_speakers: transcription.has_speakers };
}
