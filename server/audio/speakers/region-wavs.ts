// Pieces of a 16 kHz 16-bit mono WAV written as WAVs of their own: one per speaker (that speaker's turns, end to end)
// or one of the speech VAD found, each with the map back to the call's timeline (channel-speech.ts's TimeMap). One
// streaming pass over the source, so a long call is never held in memory.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { WHISPER_SAMPLE_RATE, wavHeader } from '../ffmpeg.js';
import type { SpeechRegion } from '../channel-speech.js';

/** Where the samples of a WAV file start and how many bytes they take (ffmpeg may write a LIST chunk first). */
export async function wavData(file: string): Promise<{ offset: number; bytes: number }> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    let offset = 12;
    const head = Buffer.alloc(8);
    while (offset + 8 <= size) {
      await handle.read(head, 0, 8, offset);
      const id = head.toString('ascii', 0, 4);
      const length = head.readUInt32LE(4);
      if (id === 'data') return { offset: offset + 8, bytes: Math.min(length, size - offset - 8) };
      offset += 8 + length + (length % 2);
    }
    return { offset: 44, bytes: Math.max(0, size - 44) };
  } finally {
    await handle.close();
  }
}

export async function writeRegionWavs(source: string, outputs: { path: string; regions: SpeechRegion[] }[]): Promise<void> {
  const { offset, bytes } = await wavData(source);
  const total = Math.floor(bytes / 2);
  const files = await Promise.all(
    outputs.map(async (o) => {
      const ranges = o.regions.map((r) => [Math.max(0, Math.round(r.start * WHISPER_SAMPLE_RATE)), Math.min(total, Math.round(r.end * WHISPER_SAMPLE_RATE))] as const).filter(([a, b]) => b > a);
      const length = ranges.reduce((n, [a, b]) => n + (b - a) * 2, 0);
      const handle = await fs.open(o.path, 'w');
      await handle.write(wavHeader(length), 0, 44, 0);
      return { handle, ranges, position: 44, range: 0 };
    }),
  );
  try {
    let sample = 0;
    let carry: Buffer = Buffer.alloc(0);
    for await (const piece of createReadStream(source, { start: offset, end: offset + bytes - 1, highWaterMark: 256 * 1024 })) {
      const chunk = carry.length ? Buffer.concat([carry, piece as Buffer]) : (piece as Buffer);
      const count = Math.floor(chunk.length / 2);
      for (const file of files) {
        // Ranges are sorted and do not overlap: copy the parts of this chunk that fall in them.
        while (file.range < file.ranges.length) {
          const [a, b] = file.ranges[file.range]!;
          const from = Math.max(a, sample);
          const to = Math.min(b, sample + count);
          if (to > from) {
            await file.handle.write(chunk, (from - sample) * 2, (to - from) * 2, file.position);
            file.position += (to - from) * 2;
          }
          if (b <= sample + count) file.range++;
          else break;
        }
      }
      sample += count;
      carry = chunk.subarray(count * 2);
    }
  } finally {
    await Promise.all(files.map((f) => f.handle.close()));
  }
}

/** Regions sorted, each padded, overlaps and gaps under `bridge` seconds merged, clipped to [0, seconds]. */
export function tidyRegions(regions: SpeechRegion[], seconds: number, { pad = 0.15, bridge = 0.3 } = {}): SpeechRegion[] {
  const sorted = regions.map((r) => ({ start: Math.max(0, r.start - pad), end: Math.min(seconds, r.end + pad) })).filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const merged: SpeechRegion[] = [];
  for (const r of sorted) {
    const last = merged.at(-1);
    if (last && r.start - last.end < bridge) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged.map((r) => ({ start: Math.round(r.start * 1000) / 1000, end: Math.round(r.end * 1000) / 1000 }));
}
