// Edits of a transcript are revisions: the recognised original is revision 1 and stays as it was; each save in the
// editor adds the next one, made from the revision the editor started from (409 when another save came in between,
// so two editors never overwrite each other unseen). Reading goes through readTranscriptRevision
// (transcriptions.repository.ts) for every domain.
import type { Db } from '../db/knex.js';
import { now } from '../db/time.js';
import { AppError } from '../http/errors.js';
import { AudioErrorCode, type Transcription } from '../../contract/audio.js';
import type { RevisionInput } from './audio.schema.js';
import { getTranscription } from './transcribe.service.js';
import { insertRevision } from './transcriptions.repository.js';

export async function saveRevision(db: Db, userId: number, id: number, input: RevisionInput): Promise<Transcription> {
  const current = await getTranscription(db, userId, id);
  const conflict = () =>
    new AppError(409, AudioErrorCode.revisionConflict, `Revision ${input.base_revision} is not the latest revision of this transcript (${current.latest_revision} is): load it again and redo the change`, {
      latest_revision: current.latest_revision,
    });
  if (input.base_revision !== current.latest_revision) throw conflict();
  const segments = [...input.segments].sort((a, b) => a.start - b.start || a.end - b.end);
  const labels = new Set(segments.flatMap((s) => (s.speaker === undefined ? [] : [s.speaker])));
  // Names are kept for labels still in use (a renamed speaker whose segments all moved away needs no name).
  const names = Object.fromEntries(Object.entries(input.speaker_names ?? current.speaker_names).filter(([label, name]) => labels.has(label) && name.trim()));
  const revision = await insertRevision(db, { id, userId, baseRevision: input.base_revision, text: segments.map((s) => s.text).join(' '), segments, speakerNames: names, createdAt: now() });
  if (revision === undefined) throw conflict();
  return getTranscription(db, userId, id, revision);
}
