// Mono calls on a local route: who speaks when (sherpa-onnx speaker diarization), and where the speech is (silero
// VAD). Like the channels of a stereo call (channel-speech.ts), each speaker's turns are written end to end to a
// WAV of their own with the map back to the call's timeline, and Whisper transcribes each speaker's WAV: every
// segment is labelled with certainty and Whisper never hears the silences. Without speakers, VAD alone makes one
// WAV of the call's speech. sherpa-onnx runs in a child process (sherpa-runner.ts).
import path from 'node:path';
import type { RepMatch, TranscriptSegment } from '../../../contract/audio.js';
import { timeMapOf, toCallTime, type SpeechRegion, type TimeMap } from '../channel-speech.js';
import { labelSpeakers } from './rep-match.js';
import { tidyRegions, writeRegionWavs } from './region-wavs.js';
import { runSherpa } from './sherpa-runner.js';
import type { UsableSpeakerModels } from './speaker-models.js';
import { whisperThreads } from '../local-whisper.js';

export interface VoiceOptions {
  /** 1–8, or 0: find the number by `threshold`. */
  speakerCount: number;
  /** Cosine distance for speakerCount 0 (system parameter audio_speaker_threshold). */
  threshold: number;
  models: UsableSpeakerModels;
  /** The caller's voiceprint, made by the embedding model in use; null when none. */
  voiceprint: number[] | null;
}

export interface VoicePass {
  wav: string;
  seconds: number;
  speaker?: string;
  map: TimeMap;
}

export interface VoicePlan {
  passes: VoicePass[];
  speechSeconds: number | null;
  repMatch: RepMatch | null;
}

const seconds = (regions: SpeechRegion[]) => regions.reduce((n, r) => n + r.end - r.start, 0);

interface PlanInput {
  /** The decoded mono call (16 kHz 16-bit WAV). */
  wav: string;
  duration: number;
  workDir: string;
  signal: AbortSignal;
  onProgress(fraction: number): void;
}

/** Diarizes the call and writes one WAV per speaker; labels by voiceprint when one matches. */
export async function speakerPasses(input: PlanInput, voices: VoiceOptions): Promise<VoicePlan> {
  const files = voices.models.files!;
  const timeoutMs = Math.max(10 * 60_000, input.duration * 2_000);
  const result = await runSherpa(
    { type: 'diarize', wav: input.wav, ...files, speakers: voices.speakerCount, threshold: voices.threshold, threads: whisperThreads(), embed: voices.voiceprint !== null },
    { signal: input.signal, timeoutMs, onProgress: input.onProgress },
  );
  const bySpeaker = new Map<number, SpeechRegion[]>();
  for (const s of [...result.segments].sort((a, b) => a.start - b.start)) bySpeaker.set(s.speaker, [...(bySpeaker.get(s.speaker) ?? []), { start: s.start, end: s.end }]);
  // Speakers in the order they first speak: A is whoever opens the call.
  const order = [...bySpeaker.keys()];
  const { labels, repMatch } = labelSpeakers(
    order.map((speaker) => ({ key: speaker, embedding: result.embeddings.find((e) => e.speaker === speaker)?.embedding ?? [] })),
    voices.voiceprint,
  );
  const outputs = order.map((speaker, i) => ({ speaker: labels.get(speaker)!, path: path.join(input.workDir, `voice-${i}.wav`), regions: tidyRegions(bySpeaker.get(speaker)!, input.duration) }));
  await writeRegionWavs(input.wav, outputs);
  const speech = tidyRegions(result.segments, input.duration, { pad: 0, bridge: 0 });
  return {
    passes: outputs.map((o) => ({ wav: o.path, seconds: seconds(o.regions), speaker: o.speaker, map: timeMapOf(o.regions) })),
    speechSeconds: round(seconds(speech)),
    repMatch,
  };
}

/** The call's speech by VAD, in one WAV; null when VAD found none (the whole call is then transcribed). */
export async function speechPass(input: PlanInput, vad: string): Promise<VoicePlan | null> {
  const { regions } = await runSherpa({ type: 'vad', wav: input.wav, vad }, { signal: input.signal, timeoutMs: Math.max(5 * 60_000, input.duration * 1_000), onProgress: input.onProgress });
  const speech = tidyRegions(regions, input.duration, { pad: 0, bridge: 0 });
  if (!speech.length) return { passes: [], speechSeconds: 0, repMatch: null };
  const padded = tidyRegions(regions, input.duration, { pad: 0.2, bridge: 0.5 });
  const wav = path.join(input.workDir, 'speech.wav');
  await writeRegionWavs(input.wav, [{ path: wav, regions: padded }]);
  return { passes: [{ wav, seconds: seconds(padded), map: timeMapOf(padded) }], speechSeconds: round(seconds(speech)), repMatch: null };
}

/**
 * A segment Whisper timed on a compacted WAV, placed on the call's timeline; one that runs across the junction of
 * two pieces (two turns) is split there, its words shared out by time.
 */
export function toCallSegments(map: TimeMap, segment: TranscriptSegment, speaker?: string): TranscriptSegment[] {
  const label = speaker === undefined ? {} : { speaker };
  const pieces = map.filter((p) => p.compactStart < segment.end && p.compactStart + (p.end - p.start) > segment.start);
  if (pieces.length <= 1) return [{ start: toCallTime(map, segment.start), end: toCallTime(map, segment.end, true), text: segment.text, ...label }];
  // Words where the text has spaces; characters where it has none (Chinese).
  const words = /\s/.test(segment.text.trim()) ? segment.text.split(/(?<=\s)/) : [...segment.text];
  const spans = pieces.map((p) => {
    const from = Math.max(segment.start, p.compactStart);
    const to = Math.min(segment.end, p.compactStart + (p.end - p.start));
    return { from, to, share: (to - from) / (segment.end - segment.start || 1) };
  });
  const out: TranscriptSegment[] = [];
  let used = 0;
  spans.forEach((span, i) => {
    const take = i === spans.length - 1 ? words.length - used : Math.round(span.share * words.length);
    const text = words.slice(used, used + take).join('').trim();
    used += take;
    if (text) out.push({ start: toCallTime(map, span.from), end: toCallTime(map, span.to, true), text, ...label });
  });
  return out.length ? out : [{ start: toCallTime(map, segment.start), end: toCallTime(map, segment.end, true), text: segment.text, ...label }];
}

const round = (s: number) => Math.round(s * 1000) / 1000;
