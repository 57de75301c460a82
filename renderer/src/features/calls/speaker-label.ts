// Speaker labels in the reader's language: the API keeps its values (rep, customer, A, B), the screens show
// 销售 / 客户 / 说话人 A / 说话人 B (or their English). One table for every calls and coaching screen.
import type { ParseKeys, TFunction } from 'i18next';

/** The speaker values the server uses or the upload suggests, and their label keys. */
export const SPEAKER_LABELS: Readonly<Record<string, ParseKeys>> = {
  rep: 'calls.speaker.rep',
  customer: 'calls.speaker.customer',
  A: 'calls.speaker.A',
  B: 'calls.speaker.B',
};

/** The roles a channel of a stereo call can be named by at upload (the value sent is the key). */
export const CHANNEL_ROLES = ['rep', 'customer'] as const;

/** A speaker as the reader sees it; a label the user typed is shown as given. */
export const speakerLabel = (t: TFunction, speaker: string): string => (Object.hasOwn(SPEAKER_LABELS, speaker) ? (t(SPEAKER_LABELS[speaker]!) as string) : speaker);
