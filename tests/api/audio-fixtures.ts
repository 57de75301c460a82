// Call recordings made for the tests, never downloaded: two espeak-ng voices, sox to place them on the two channels
// of a stereo call (and to mix them to mono), ffmpeg (the @ffmpeg-installer binary the server uses) to encode them
// the way phones and call recorders do. Made once per version of this recipe and kept in the temp folder, so test
// files (and runs) share them.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const requireHere = createRequire(import.meta.url);
export const FFMPEG = (requireHere('@ffmpeg-installer/ffmpeg') as { path: string }).path;
export { WHISPER_CPP } from '../support/tools.js';

/** Why the local-path tests cannot run here, or false (never skipped under CI=true: tests/support/tools.ts). */
export { LOCAL_PATH_SKIP as LOCAL_PATH_MISSING } from '../support/tools.js';

const RECIPE = 'v2';
const DIR = path.join(os.tmpdir(), `trainbench-audio-fixtures-${RECIPE}`);

/** The rep speaks first on the left channel, the customer after a pause on the right. */
export const REP_LINE = 'Hello, this is Anna from the bank. How can I help you today?';
export const CUSTOMER_LINE = 'I would like to ask about the fixed rate. Is it a good offer?';
/** Seconds of silence between the rep's line and the customer's. */
export const PAUSE = 0.8;

export interface CallFixtures {
  dir: string;
  /** Seconds: the rep talks from 0 to repEnd on the left, the customer from customerStart on the right. */
  repEnd: number;
  customerStart: number;
  files: Record<string, string>;
}

const run = (program: string, args: string[]) => execFileSync(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
const seconds = (file: string) => Number(execFileSync('soxi', ['-D', file]).toString().trim());

async function make(dir: string): Promise<Omit<CallFixtures, 'dir'>> {
  const f = (name: string) => path.join(dir, name);
  run('espeak-ng', ['-v', 'en-us', '-s', '165', '-w', f('rep-raw.wav'), REP_LINE]);
  run('espeak-ng', ['-v', 'en+f3', '-s', '165', '-w', f('customer-raw.wav'), CUSTOMER_LINE]);
  run('sox', [f('rep-raw.wav'), '-r', '16000', f('rep.wav')]);
  run('sox', [f('customer-raw.wav'), '-r', '16000', f('customer.wav')]);
  const repEnd = seconds(f('rep.wav'));
  const customerLength = seconds(f('customer.wav'));
  const customerStart = repEnd + PAUSE;
  run('sox', [f('rep.wav'), f('left.wav'), 'pad', '0', String(PAUSE + customerLength)]);
  run('sox', [f('customer.wav'), f('right.wav'), 'pad', String(customerStart), '0']);
  run('sox', ['-M', f('left.wav'), f('right.wav'), f('call-stereo.wav')]);
  run('sox', ['-m', f('left.wav'), f('right.wav'), f('call-mono.wav')]);
  // A long mono call (the rep's line over and over, about four minutes) for queue, cancel and restart tests: long
  // enough that whisper.cpp is still at it seconds later on a fast, quiet machine (eight lines took 1.6 s).
  run('sox', [f('rep.wav'), f('long-mono.wav'), 'repeat', '59']);
  const encode = (source: string, target: string, ...args: string[]) => run(FFMPEG, ['-nostdin', '-v', 'error', '-y', '-i', f(source), ...args, f(target)]);
  encode('call-stereo.wav', 'call.mp3', '-c:a', 'libmp3lame', '-b:a', '64k');
  encode('call-stereo.wav', 'call.m4a', '-c:a', 'aac', '-b:a', '64k');
  encode('call-stereo.wav', 'call.ogg', '-c:a', 'libvorbis');
  encode('call-stereo.wav', 'call.opus', '-c:a', 'libopus', '-f', 'ogg');
  encode('call-stereo.wav', 'call.flac', '-c:a', 'flac');
  encode('call-stereo.wav', 'call.webm', '-c:a', 'libopus', '-f', 'webm');
  encode('call-mono.wav', 'call.amr', '-c:a', 'libopencore_amrnb', '-ar', '8000', '-ac', '1', '-b:a', '12.2k');
  encode('call-stereo.wav', 'call-44k-24bit.wav', '-c:a', 'pcm_s24le', '-ar', '44100');
  encode('call-mono.wav', 'call-8k-8bit.wav', '-c:a', 'pcm_u8', '-ar', '8000');
  // A stereo file whose two channels carry the same signal: a mono recording saved as stereo.
  encode('call-mono.wav', 'dual-mono.wav', '-ac', '2');
  const m4a = await fs.readFile(f('call.m4a'));
  await fs.writeFile(f('truncated.m4a'), m4a.subarray(0, Math.floor(m4a.length / 2)));
  return {
    repEnd,
    customerStart,
    files: Object.fromEntries(
      ['call-stereo.wav', 'call-mono.wav', 'long-mono.wav', 'call.mp3', 'call.m4a', 'call.ogg', 'call.opus', 'call.flac', 'call.webm', 'call.amr', 'call-44k-24bit.wav', 'call-8k-8bit.wav', 'dual-mono.wav', 'truncated.m4a'].map((name) => [name, f(name)]),
    ),
  };
}

let made: Promise<CallFixtures> | undefined;

/** The fixtures, made by the first caller of a run (into a fresh folder, renamed into place whole). */
export function callFixtures(): Promise<CallFixtures> {
  made ??= (async () => {
    const meta = path.join(DIR, 'fixtures.json');
    if (!existsSync(meta)) {
      const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-audio-make-'));
      const info = await make(scratch);
      await fs.writeFile(path.join(scratch, 'fixtures.json'), JSON.stringify({ repEnd: info.repEnd, customerStart: info.customerStart, names: Object.keys(info.files) }));
      // Another test file may have won the race: then its folder is used and this one dropped.
      await fs.rename(scratch, DIR).catch(() => fs.rm(scratch, { recursive: true, force: true }));
    }
    const { repEnd, customerStart, names } = JSON.parse(await fs.readFile(meta, 'utf8')) as { repEnd: number; customerStart: number; names: string[] };
    return { dir: DIR, repEnd, customerStart, files: Object.fromEntries(names.map((name) => [name, path.join(DIR, name)])) };
  })();
  return made;
}

/** A real 1×1 PNG. */
export const PNG_BYTES = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A real mono 16-bit PCM WAV at 16 kHz: a 440 Hz tone of the given length. */
export function toneWav(seconds: number): Uint8Array {
  const rate = 16_000;
  const samples = Math.round(rate * seconds);
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12_000), 44 + i * 2);
  return new Uint8Array(wav);
}

export interface CallTurn {
  side: 'rep' | 'customer';
  text: string;
}

export interface TimedTurn extends CallTurn {
  start: number;
  end: number;
}

/**
 * A stereo call of the given turns, spoken by espeak-ng: the rep's voice on the left channel, the customer's on the
 * right, PAUSE seconds between turns. Made once per set of turns (kept in the temp folder); returns the WAV and
 * each turn's times on the call's timeline.
 */
export async function stereoCall(turns: CallTurn[]): Promise<{ file: string; turns: TimedTurn[] }> {
  const key = crypto.createHash('sha256').update(JSON.stringify({ RECIPE, turns })).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), `trainbench-call-${key}`);
  const meta = path.join(dir, 'turns.json');
  if (!existsSync(meta)) {
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-call-make-'));
    const f = (name: string) => path.join(scratch, name);
    const silence = (name: string, length: number) => run('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', f(name), 'trim', '0', String(length)]);
    const timed: TimedTurn[] = [];
    const left: string[] = [];
    const right: string[] = [];
    let at = 0;
    for (const [i, turn] of turns.entries()) {
      run('espeak-ng', ['-v', turn.side === 'rep' ? 'en-us' : 'en+f3', '-s', '165', '-w', f(`raw-${i}.wav`), turn.text]);
      run('sox', [f(`raw-${i}.wav`), '-r', '16000', '-c', '1', '-b', '16', f(`turn-${i}.wav`)]);
      const length = seconds(f(`turn-${i}.wav`));
      silence(`quiet-${i}.wav`, length);
      silence(`pause-${i}.wav`, PAUSE);
      (turn.side === 'rep' ? left : right).push(f(`turn-${i}.wav`), f(`pause-${i}.wav`));
      (turn.side === 'rep' ? right : left).push(f(`quiet-${i}.wav`), f(`pause-${i}.wav`));
      timed.push({ ...turn, start: Math.round(at * 1000) / 1000, end: Math.round((at + length) * 1000) / 1000 });
      at += length + PAUSE;
    }
    run('sox', [...left, f('left.wav')]);
    run('sox', [...right, f('right.wav')]);
    run('sox', ['-M', f('left.wav'), f('right.wav'), f('call.wav')]);
    await fs.writeFile(path.join(scratch, 'turns.json'), JSON.stringify(timed));
    await fs.rename(scratch, dir).catch(() => fs.rm(scratch, { recursive: true, force: true }));
  }
  return { file: path.join(dir, 'call.wav'), turns: JSON.parse(await fs.readFile(meta, 'utf8')) as TimedTurn[] };
}
