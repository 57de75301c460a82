// Mono calls as phones record them, made for the speaker tests: espeak-ng's male voice (en-us) and female voice
// (en+f3) taking turns on one channel, with silences between turns; encoded as AMR and M4A too (by the bundled ffmpeg: Debian's has no AMR encoder). Made once per recipe
// and set of turns, kept in the temp folder.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FFMPEG } from './audio-fixtures.js';

const RECIPE = 'speakers-v1';
export const MALE_VOICE = 'en-us';
export const FEMALE_VOICE = 'en+f3';

export interface VoiceTurn {
  voice: 'male' | 'female';
  text: string;
}
export interface TimedVoiceTurn extends VoiceTurn {
  start: number;
  end: number;
}

const run = (program: string, args: string[]) => execFileSync(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
const seconds = (file: string) => Number(execFileSync('soxi', ['-D', file]).toString().trim());

/** A sales call: the rep (male) and the customer (female) take turns. */
export const CALL_TURNS: VoiceTurn[] = [
  { voice: 'male', text: 'Good morning, this is David from the bank, calling about your savings account and our new fixed rate offer.' },
  { voice: 'female', text: 'Yes, I received your letter last week, and I have some questions about the interest and the fees.' },
  { voice: 'male', text: 'Of course. The fixed rate is three percent for two years, and there are no fees for opening the account.' },
  { voice: 'female', text: 'That sounds interesting. Can I take the money out early if I need it for my family?' },
  { voice: 'male', text: 'You can, but you would lose the interest for the current year. Shall I send you the details by mail?' },
  { voice: 'female', text: 'Please do, and I will call you back next week after I talk to my husband about it.' },
];

/** A different sentence of the male voice, long enough for a voiceprint (at least 8 s of speech). */
export const MALE_ENROLMENT_TEXT =
  'I am reading this paragraph so that the application can learn my voice. My calls with customers will then show which speaker I am, without anyone listening to them. The recording itself is not kept.';

export interface MonoCall {
  dir: string;
  wav: string;
  amr: string;
  m4a: string;
  turns: TimedVoiceTurn[];
}

/** Seconds of silence after each turn. */
export const TURN_PAUSE = 0.8;

export async function monoCall(turns: VoiceTurn[] = CALL_TURNS): Promise<MonoCall> {
  const key = crypto.createHash('sha256').update(JSON.stringify({ RECIPE, turns })).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), `trainbench-mono-call-${key}`);
  const meta = path.join(dir, 'turns.json');
  if (!existsSync(meta)) {
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-mono-make-'));
    const f = (name: string) => path.join(scratch, name);
    const timed: TimedVoiceTurn[] = [];
    const parts: string[] = [];
    let at = 0;
    for (const [i, turn] of turns.entries()) {
      run('espeak-ng', ['-v', turn.voice === 'male' ? MALE_VOICE : FEMALE_VOICE, '-s', '165', '-w', f(`raw-${i}.wav`), turn.text]);
      run('sox', [f(`raw-${i}.wav`), '-r', '16000', '-c', '1', '-b', '16', f(`turn-${i}.wav`), 'pad', '0', String(TURN_PAUSE)]);
      const length = seconds(f(`turn-${i}.wav`));
      timed.push({ ...turn, start: round(at), end: round(at + length - TURN_PAUSE) });
      parts.push(f(`turn-${i}.wav`));
      at += length;
    }
    run('sox', [...parts, f('call.wav')]);
    run(FFMPEG, ['-nostdin', '-v', 'error', '-y', '-i', f('call.wav'), '-c:a', 'libopencore_amrnb', '-ar', '8000', '-ac', '1', '-b:a', '12.2k', f('call.amr')]);
    run(FFMPEG, ['-nostdin', '-v', 'error', '-y', '-i', f('call.wav'), '-c:a', 'aac', '-b:a', '48k', f('call.m4a')]);
    await fs.writeFile(meta.replace(dir, scratch), JSON.stringify(timed));
    await fs.rename(scratch, dir).catch(() => fs.rm(scratch, { recursive: true, force: true }));
  }
  const timed = JSON.parse(await fs.readFile(meta, 'utf8')) as TimedVoiceTurn[];
  return { dir, wav: path.join(dir, 'call.wav'), amr: path.join(dir, 'call.amr'), m4a: path.join(dir, 'call.m4a'), turns: timed };
}

/** One voice reading `text`, as a 16 kHz mono WAV (for voiceprints). */
export async function voiceSample(voice: 'male' | 'female', text: string): Promise<string> {
  const key = crypto.createHash('sha256').update(JSON.stringify({ RECIPE, voice, text })).digest('hex').slice(0, 16);
  const file = path.join(os.tmpdir(), `trainbench-voice-${key}.wav`);
  if (!existsSync(file)) {
    const raw = `${file}.${process.pid}.raw.wav`;
    run('espeak-ng', ['-v', voice === 'male' ? MALE_VOICE : FEMALE_VOICE, '-s', '165', '-w', raw, text]);
    run('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', `${file}.${process.pid}.wav`]);
    await fs.rename(`${file}.${process.pid}.wav`, file);
    await fs.rm(raw, { force: true });
  }
  return file;
}

const round = (s: number) => Math.round(s * 1000) / 1000;

/** The share of [start, end) covered by the given segments of one speaker label. */
export function coverage(segments: { start: number; end: number; speaker?: string }[], speaker: string, start: number, end: number): number {
  let covered = 0;
  for (const s of segments) if (s.speaker === speaker) covered += Math.max(0, Math.min(end, s.end) - Math.max(start, s.start));
  return covered / (end - start);
}

/** The mono call as a stereo recording: the male voice alone on `maleSide`, the female voice on the other channel. */
export async function stereoFromMono(call: MonoCall, maleSide: 'left' | 'right'): Promise<string> {
  const file = path.join(call.dir, `stereo-male-${maleSide}.wav`);
  if (existsSync(file)) return file;
  const wav = await fs.readFile(call.wav);
  const dataAt = wav.indexOf('data') + 8;
  const samples = (wav.length - dataAt) >> 1;
  const out = Buffer.alloc(44 + samples * 4);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + samples * 4, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(2, 22);
  out.writeUInt32LE(16_000, 24);
  out.writeUInt32LE(16_000 * 4, 28);
  out.writeUInt16LE(4, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(samples * 4, 40);
  const maleChannel = maleSide === 'left' ? 0 : 1;
  for (let i = 0; i < samples; i++) {
    const t = i / 16_000;
    const turn = call.turns.find((x) => t >= x.start - 0.05 && t < x.end + 0.4);
    const value = wav.readInt16LE(dataAt + i * 2);
    const channel = turn?.voice === 'male' ? maleChannel : 1 - maleChannel;
    out.writeInt16LE(value, 44 + i * 4 + channel * 2);
  }
  await fs.writeFile(`${file}.${process.pid}`, out);
  await fs.rename(`${file}.${process.pid}`, file);
  return file;
}
