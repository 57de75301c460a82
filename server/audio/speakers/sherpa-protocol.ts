// What the server and its sherpa-onnx child process (sherpa-worker.ts) say to each other.

export interface TimeRange {
  /** Seconds. */
  start: number;
  end: number;
}

export type SherpaTask =
  /** Loads the models given (a diarizer when both speaker models are) and answers what they are: a broken model fails here. */
  | { type: 'load'; segmentation?: string; embedding?: string; vad?: string }
  /**
   * Speaker diarization of a 16 kHz mono WAV; `speakers` 0 finds the number by `threshold`. `embed`: also each
   * speaker's embedding (to match a voiceprint; a pass over the whole call, so only when there is one to match).
   */
  | { type: 'diarize'; wav: string; segmentation: string; embedding: string; speakers: number; threshold: number; threads: number; embed: boolean }
  /** One embedding per item: the given ranges of its WAV, end to end (no ranges: the whole file). */
  | { type: 'embed'; embedding: string; items: { wav: string; ranges: TimeRange[] }[]; threads: number }
  /** Speech regions of a 16 kHz mono WAV by silero VAD. */
  | { type: 'vad'; wav: string; vad: string };

export interface DiarizedSegment extends TimeRange {
  /** sherpa-onnx's cluster index, 0 first. */
  speaker: number;
}

export type SherpaResult =
  | { type: 'load'; sample_rate: number | null; dim: number | null }
  | { type: 'diarize'; segments: DiarizedSegment[]; embeddings: { speaker: number; embedding: number[] }[] }
  | { type: 'embed'; embeddings: number[][] }
  | { type: 'vad'; regions: TimeRange[]; seconds: number };

export type SherpaReply = { type: 'progress'; fraction: number } | { type: 'result'; result: SherpaResult } | { type: 'error'; message: string };
