// Speakers by channel: call recorders write the rep on one channel and the customer on the other. Each channel's
// speech is found by its energy, and each channel's speech alone (its silences left out) is written to a WAV of its
// own for whisper.cpp, with the map back to the call's timeline. Transcribing the two channels this way labels every
// segment with certainty, keeps both sides of an overlap, and feeds whisper.cpp about as much audio as one pass over
// the mix would (see docs/architecture.md). A channel pair that carries the same signal is a mono recording: no
// speakers are made up for it.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { WHISPER_SAMPLE_RATE, wavHeader } from './ffmpeg.js';

/** Energy is measured over 20 ms frames. */
export const FRAME_SECONDS = 0.02;
const FRAME_SAMPLES = WHISPER_SAMPLE_RATE * FRAME_SECONDS;

/** Tuning of the speech rule (seconds and dB), named so tests and docs can refer to them. */
export const SPEECH_RULE = {
  /** Frames this far above the channel's noise floor (its 10th percentile) are speech... */
  aboveFloorDb: 12,
  /** ...and never below this level, whatever the floor. */
  minimumDb: -50,
  /** A frame more than this below the other channel at the same moment is crosstalk (the other side leaking in). */
  crosstalkDb: 25,
  /** Pauses shorter than this do not end a turn. */
  bridgeSeconds: 0.5,
  /** Shorter bursts (clicks, breaths) are not speech. */
  minimumSeconds: 0.1,
  /** Kept before and after each turn, so that words are not clipped. */
  padBeforeSeconds: 0.2,
  padAfterSeconds: 0.3,
  /** Channels whose difference carries less than this share of their energy hold the same signal. */
  sameSignalRatio: 0.001,
};

export interface SpeechRegion {
  /** Seconds on the call's timeline. */
  start: number;
  end: number;
}

/** Frame energies of both channels of interleaved 16-bit stereo PCM, and whether they carry the same signal. */
export interface StereoAnalysis {
  frameDb: [Float32Array, Float32Array];
  sameSignal: boolean;
  seconds: number;
}

const toDb = (sumSquares: number, count: number) => (count ? 10 * Math.log10(sumSquares / count / (32768 * 32768) + 1e-12) : -120);

/** One streaming pass over the raw samples: nothing but the frame energies is kept in memory. */
export async function analyseStereo(rawPath: string): Promise<StereoAnalysis> {
  const { size } = await fs.stat(rawPath);
  const frames = Math.ceil(size / 4 / FRAME_SAMPLES);
  const db: [Float32Array, Float32Array] = [new Float32Array(frames), new Float32Array(frames)];
  let carry: Buffer = Buffer.alloc(0);
  let sample = 0;
  let frameSums = [0, 0];
  let difference = 0;
  let energy = 0;
  for await (const piece of createReadStream(rawPath, { highWaterMark: 256 * 1024 })) {
    const chunk = carry.length ? Buffer.concat([carry, piece as Buffer]) : (piece as Buffer);
    const whole = chunk.length - (chunk.length % 4);
    for (let offset = 0; offset < whole; offset += 4) {
      const left = chunk.readInt16LE(offset);
      const right = chunk.readInt16LE(offset + 2);
      frameSums[0]! += left * left;
      frameSums[1]! += right * right;
      difference += (left - right) * (left - right);
      energy += left * left + right * right;
      sample++;
      if (sample % FRAME_SAMPLES === 0) {
        const frame = sample / FRAME_SAMPLES - 1;
        db[0][frame] = toDb(frameSums[0]!, FRAME_SAMPLES);
        db[1][frame] = toDb(frameSums[1]!, FRAME_SAMPLES);
        frameSums = [0, 0];
      }
    }
    carry = chunk.subarray(whole);
  }
  const rest = sample % FRAME_SAMPLES;
  if (rest) {
    db[0][frames - 1] = toDb(frameSums[0]!, rest);
    db[1][frames - 1] = toDb(frameSums[1]!, rest);
  }
  return { frameDb: db, sameSignal: energy === 0 || difference / energy < SPEECH_RULE.sameSignalRatio, seconds: sample / WHISPER_SAMPLE_RATE };
}

function percentile(values: Float32Array, p: number): number {
  if (!values.length) return -120;
  const sorted = Float32Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/**
 * The turns of one channel: frames loud enough above the channel's own noise floor and not mere crosstalk from the
 * other channel, with short pauses bridged, short bursts dropped and a little padding kept around each turn.
 */
export function speechRegions(own: Float32Array, other: Float32Array, seconds = own.length * FRAME_SECONDS): SpeechRegion[] {
  const rule = SPEECH_RULE;
  const threshold = Math.max(percentile(own, 0.1) + rule.aboveFloorDb, rule.minimumDb);
  const runs: SpeechRegion[] = [];
  for (let i = 0; i < own.length; i++) {
    const active = own[i]! >= threshold && own[i]! >= (other[i] ?? -120) - rule.crosstalkDb;
    if (!active) continue;
    const start = i * FRAME_SECONDS;
    const last = runs.at(-1);
    if (last && start - last.end < rule.bridgeSeconds) last.end = start + FRAME_SECONDS;
    else runs.push({ start, end: start + FRAME_SECONDS });
  }
  const padded: SpeechRegion[] = [];
  for (const run of runs.filter((r) => r.end - r.start >= rule.minimumSeconds)) {
    const region = { start: Math.max(0, run.start - rule.padBeforeSeconds), end: Math.min(seconds, run.end + rule.padAfterSeconds) };
    const last = padded.at(-1);
    if (last && region.start <= last.end) last.end = Math.max(last.end, region.end);
    else padded.push(region);
  }
  return padded.map((r) => ({ start: round(r.start), end: round(r.end) }));
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Where each piece of a channel's compacted WAV sits on the call's timeline. */
export type TimeMap = { compactStart: number; start: number; end: number }[];

export function timeMapOf(regions: SpeechRegion[]): TimeMap {
  let compact = 0;
  return regions.map((r) => {
    const piece = { compactStart: compact, start: r.start, end: r.end };
    compact += r.end - r.start;
    return piece;
  });
}

/** A time of the compacted WAV on the call's timeline (an end time at a junction stays in the piece it ends). */
export function toCallTime(map: TimeMap, t: number, isEnd = false): number {
  if (!map.length) return t;
  let piece = map[0]!;
  for (const p of map) {
    if (isEnd ? p.compactStart < t : p.compactStart <= t) piece = p;
    else break;
  }
  return round(Math.min(piece.end, piece.start + Math.max(0, t - piece.compactStart)));
}

const sampleRanges = (regions: SpeechRegion[]) => regions.map((r) => [Math.round(r.start * WHISPER_SAMPLE_RATE), Math.round(r.end * WHISPER_SAMPLE_RATE)] as const);

/**
 * Writes, in one pass over the raw stereo samples, a mono WAV per output holding only its channel's regions, or with
 * `mix` one WAV of both channels averaged.
 */
export async function writeChannelWavs(rawPath: string, outputs: { channel: 0 | 1; path: string; regions: SpeechRegion[] }[], mix?: string): Promise<void> {
  const { size } = await fs.stat(rawPath);
  const total = Math.floor(size / 4);
  const targets = mix ? [{ path: mix, ranges: [[0, total] as const], channel: -1 }] : outputs.map((o) => ({ path: o.path, ranges: sampleRanges(o.regions), channel: o.channel as number }));
  const files = await Promise.all(
    targets.map(async (t) => {
      const bytes = t.ranges.reduce((n, [a, b]) => n + Math.max(0, Math.min(b, total) - a) * 2, 0);
      const handle = await fs.open(t.path, 'w');
      await handle.write(wavHeader(bytes), 0, 44, 0);
      return { ...t, handle, position: 44, range: 0 };
    }),
  );
  try {
    let carry: Buffer = Buffer.alloc(0);
    let sample = 0;
    for await (const piece of createReadStream(rawPath, { highWaterMark: 256 * 1024 })) {
      const chunk = carry.length ? Buffer.concat([carry, piece as Buffer]) : (piece as Buffer);
      const count = Math.floor(chunk.length / 4);
      for (const file of files) {
        const out = Buffer.alloc(count * 2);
        let written = 0;
        for (let i = 0; i < count; i++) {
          const at = sample + i;
          while (file.range < file.ranges.length && at >= file.ranges[file.range]![1]) file.range++;
          const range = file.ranges[file.range];
          if (!range || at < range[0]) continue;
          const value = file.channel === -1 ? Math.round((chunk.readInt16LE(i * 4) + chunk.readInt16LE(i * 4 + 2)) / 2) : chunk.readInt16LE(i * 4 + file.channel * 2);
          out.writeInt16LE(value, written);
          written += 2;
        }
        if (written) {
          await file.handle.write(out, 0, written, file.position);
          file.position += written;
        }
      }
      sample += count;
      carry = chunk.subarray(count * 4);
    }
  } finally {
    await Promise.all(files.map((f) => f.handle.close()));
  }
}
