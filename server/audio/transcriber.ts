// What one route is asked to do, whatever runs it (whisper.cpp in process or an OpenAI-compatible server).
import type { AudioFormat, TranscriptSegment } from '../../contract/audio.js';

export interface AudioInput {
  /** The received file on disk. */
  filePath: string;
  /** The client's file name (its extension names the format for the receiving server). */
  filename: string;
  format: AudioFormat;
  language?: string;
  /** Where a local model named without a folder is found (config.modelsDir). */
  modelsDir?: string;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

export interface RawTranscript {
  text: string;
  language: string;
  segments: TranscriptSegment[];
}

/** The route cannot run here at all (software or model missing); nothing was sent anywhere. */
export class RouteUnavailable extends Error {
  override name = 'RouteUnavailable';
}
