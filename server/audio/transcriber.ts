// What one route is asked to do, whatever runs it (whisper.cpp on this machine or an OpenAI-compatible server).
import type { AudioInfo, RepMatch, SpeakerMethod, TranscriptSegment } from '../../contract/audio.js';
import type { ModelDirs } from './models.js';
import type { VoiceOptions } from './speakers/voice-passes.js';

export interface AudioInput {
  /** The received file on disk, as uploaded. */
  filePath: string;
  /** The client's file name, without any folder part. */
  filename: string;
  /** What ffprobe found in it. */
  audio: AudioInfo;
  language?: string;
  speakersRequested: boolean;
  /** Labels for the left and right channel; undefined: "A" and "B". */
  channelNames?: string[];
  /** A folder of the job's own for decoded audio and whisper.cpp's output; removed with the job. */
  workDir: string;
  modelDirs: ModelDirs;
  /** `fast` decodes greedily without temperature fallback (system parameter audio_local_quality). */
  quality: 'accurate' | 'fast';
  /** Aborts when the job is cancelled or a synchronous client goes away. */
  signal: AbortSignal;
  /** Progress of this route, 0–1, and what it is doing. */
  onProgress(fraction: number, stage: 'decoding' | 'speakers' | 'transcribing' | 'uploading'): void;
  /** Speakers by voice and speech by VAD on a local route (set for local routes only). */
  voices?: VoiceOptions;
}

export interface RawTranscript {
  text: string;
  language: string;
  segments: TranscriptSegment[];
  /** Why speakers could not be separated although asked for, in Chinese (local route: a mono recording). */
  speakersLost_zh?: string;
  speaker_method?: SpeakerMethod | null;
  rep_match?: RepMatch | null;
  speech_seconds?: number | null;
}

/** The route cannot run here at all (software or model missing); nothing was sent anywhere. */
export class RouteUnavailable extends Error {
  override name = 'RouteUnavailable';
}
