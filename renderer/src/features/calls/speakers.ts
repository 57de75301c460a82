import { speakerLabel } from './speaker-label';

/** See speaker-label.ts: the one table of speaker labels. */
export const speakerName = speakerLabel;

/** The speakers of a transcript in the order they first speak. */
export const speakersOf = (segments: { speaker?: string }[]) => [...new Set(segments.flatMap((s) => (s.speaker ? [s.speaker] : [])))];

/** Two colours, one per speaker: the rep's (or the first voice's) and everyone else's. */
export const speakerClass = (speaker: string, first: string | undefined) => `speaker ${speaker === first ? 'speaker-a' : 'speaker-b'}`;
