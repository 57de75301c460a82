/** Speech-to-text (spec 4.11): POST /api/audio/transcribe and the caller's stored transcriptions. */
import type { AiProvider } from './ai.js';

/** Accepted by file extension. */
export const AudioFormats = ['mp3', 'wav', 'm4a', 'ogg', 'flac'] as const;
export type AudioFormat = (typeof AudioFormats)[number];

/** 200 MB, as for direct document uploads (spec part 8). */
export const MAX_AUDIO_BYTES = 200 * 1024 * 1024;

export interface TranscriptSegment {
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
  text: string;
  /** Present only when the route that answered labelled speakers. */
  speaker?: string;
}

/** The route as it was when the audio went through it. */
export interface AudioRouteRef {
  /** The id it had then; a stored transcription keeps it even if the route was deleted since. */
  id: number;
  name: string;
  provider: AiProvider;
  /** Local routes (is_local, or provider `local-whisper`) are tried before cloud routes. */
  is_local: boolean;
}

/** One route tried for a transcription, in order; a route that could not run reports why in error. */
export interface TranscriptionAttempt {
  route: AudioRouteRef;
  ok: boolean;
  error?: string;
}

export interface Transcription {
  id: number;
  filename: string;
  file_size: number;
  text: string;
  /** As the route reported it, else the language asked for, else ''. */
  language: string;
  segments: TranscriptSegment[];
  /** Speaker separation was asked for (form field `diarize` or `speakers`). */
  speakers_requested: boolean;
  has_speakers: boolean;
  route: AudioRouteRef;
  /** A local route existed but the audio went to a cloud route. */
  left_local: boolean;
  /** Speakers were asked for and not labelled, or the audio fell back from a local to a cloud route. */
  capability_degraded: boolean;
  /** A short Chinese explanation of the degradation; '' when there is none. */
  capability_zh: string;
  attempts: TranscriptionAttempt[];
  created_at: string;
}

/** A list entry: the transcription without segments and attempts. */
export type TranscriptionSummary = Omit<Transcription, 'segments' | 'attempts'>;

export const AudioErrorCode = {
  unsupportedFormat: 'audio.unsupported_format',
  /** Same code as chat: no enabled audio route could be called. */
  noModelRoute: 'no_model_route',
  /** Every route that could be called failed. */
  modelRouteFailed: 'model_route_failed',
} as const;
