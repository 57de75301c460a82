// What other domains do once a transcription is stored (the compliance inspection), without the audio domain
// knowing them: listeners per database, awaited in order; a listener that fails is logged, never fails the
// transcription.
import type { Db } from '../db/knex.js';
import type { Transcription } from '../../contract/audio.js';

export type TranscribedListener = (userId: number, transcription: Transcription) => Promise<unknown>;

const listeners = new WeakMap<object, Set<TranscribedListener>>();

/** Registers a listener for transcriptions stored through `db`; returns the unsubscribe function. */
export function onTranscribed(db: Db, listener: TranscribedListener): () => void {
  const set = listeners.get(db) ?? new Set();
  listeners.set(db, set);
  set.add(listener);
  return () => set.delete(listener);
}

export async function transcribed(db: Db, userId: number, transcription: Transcription, log: (err: unknown) => void): Promise<void> {
  for (const listener of listeners.get(db) ?? []) {
    await listener(userId, transcription).catch(log);
  }
}
