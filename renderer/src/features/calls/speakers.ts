import type { ParseKeys, TFunction } from 'i18next';

/** The channel names the upload suggests, shown in the interface language; any other label is shown as given. */
const known: Record<string, ParseKeys> = { rep: 'calls.speaker.rep', customer: 'calls.speaker.customer', A: 'calls.speaker.A', B: 'calls.speaker.B' };

export const speakerName = (t: TFunction, speaker: string) => (known[speaker] ? t(known[speaker]) : speaker);

/** The speakers of a transcript in the order they first speak. */
export const speakersOf = (segments: { speaker?: string }[]) => [...new Set(segments.flatMap((s) => (s.speaker ? [s.speaker] : [])))];

/** Two colours, one per speaker: the rep's (or the first voice's) and everyone else's. */
export const speakerClass = (speaker: string, first: string | undefined) => `speaker ${speaker === first ? 'speaker-a' : 'speaker-b'}`;
