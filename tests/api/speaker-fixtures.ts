// Mono calls as phones record them, made for the speaker tests: espeak-ng's male voice (en-us) and female voice
// (en+f3) taking turns on one channel, with silences between turns; encoded as AMR and M4A too (by the bundled ffmpeg: Debian's has no AMR encoder). Made once per recipe
// and set of turns, kept in the temp folder.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { FFMPEG } from './audio-fixtures.js';
import { form } from './media-fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { writeTinyWhisperModel } from '../support/tiny-whisper-model.js';
import { writeTinySpeakerModels } from '../support/tiny-speaker-models.js';

const RECIPE = 'speakers-v2';
export const MALE_VOICE = 'en-us';
export const FEMALE_VOICE = 'en+f3';
/**
 * espeak-ng's pitch (0–99, default 50) of each voice: the female voice raised, so that the two stay apart in every
 * codec the tests use (AMR-NB at 8 kHz thins the male voice's fundamental toward the female's band at the default).
 */
const PITCH = { male: '50', female: '65' } as const;
const espeak = (voice: 'male' | 'female', out: string, text: string) =>
  run('espeak-ng', ['-v', voice === 'male' ? MALE_VOICE : FEMALE_VOICE, '-p', PITCH[voice], '-s', '165', '-w', out, text]);

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
      espeak(turn.voice, f(`raw-${i}.wav`), turn.text);
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
    espeak(voice, raw, text);
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

export interface Segment {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

/** The voice whose turn (widened by `margin` seconds each side) holds most of the segment; undefined when it lies in no turn. */
export function voiceAt(call: MonoCall, s: Segment, margin = 0): 'male' | 'female' | undefined {
  const overlap = (t: { start: number; end: number }) => Math.max(0, Math.min(t.end + margin, s.end) - Math.max(t.start - margin, s.start));
  const best = [...call.turns].sort((a, b) => overlap(b) - overlap(a))[0]!;
  return overlap(best) > 0 ? best.voice : undefined;
}

/** Every segment lies in a turn, and each label belongs to one voice only; returns label → voice. */
export function labelsByVoice(call: MonoCall, segments: Segment[]): Map<string, string> {
  const voices = new Map<string, string>();
  for (const s of segments) {
    assert.ok(s.speaker, `segment ${JSON.stringify(s)} has a speaker`);
    const voice = voiceAt(call, s);
    assert.ok(voice, `segment ${JSON.stringify(s)} lies in a turn of the call`);
    const known = voices.get(s.speaker!);
    assert.ok(!known || known === voice, `label ${s.speaker} is used for one voice: ${JSON.stringify(segments)}`);
    voices.set(s.speaker!, voice!);
  }
  return voices;
}

/** A server with the tiny Whisper and speaker models in DATA_DIR/models, a local-whisper route, a rep, and the mono call. */
export interface SpeakerSuite {
  ts: TestServer;
  call: MonoCall;
  rep: { id: number; username: string; token: string };
  models: { segmentation: string; embedding: string; vad?: string };
  modelsDir(): string;
  transcribe(token: string, file: string, fields?: Record<string, string>): ReturnType<TestServer['api']['request']>;
  setConfig(configs: Record<string, unknown>): ReturnType<TestServer['api']['put']>;
  routeStatus(): Promise<any>;
}

/** Registers the suite's before/after hooks in the calling describe(); its fields are there once before() ran. */
export function speakerSuite(options: { vad?: boolean } = {}): SpeakerSuite {
  const suite = {
    modelsDir: () => path.join(suite.ts.dataDir, 'models'),
    transcribe: async (token: string, file: string, fields: Record<string, string> = { speakers: 'true' }) =>
      suite.ts.api.request('POST', '/api/audio/transcribe', { token, form: form(fields, { name: path.basename(file), data: new Uint8Array(await fs.readFile(file)) }) }),
    setConfig: (configs: Record<string, unknown>) => suite.ts.api.put('/api/system/config', { token: suite.ts.adminToken, body: { configs } }),
    routeStatus: async () => (await suite.ts.api.get('/api/ai/routes/audio', { token: suite.rep.token })).body.data[0],
  } as SpeakerSuite;
  before(async () => {
    [suite.ts, suite.call] = await Promise.all([startTestServer(), monoCall()]);
    const modelsDir = suite.modelsDir();
    await fs.mkdir(modelsDir, { recursive: true });
    await writeTinyWhisperModel(path.join(modelsDir, 'ggml-tiny-test.bin'), { segmentSeconds: 30 });
    const models = (suite.models = await writeTinySpeakerModels(path.join(suite.ts.dataDir, 'generated')));
    // Copied into DATA_DIR/models, as an admin may do instead of uploading.
    await fs.copyFile(models.segmentation, path.join(modelsDir, 'segmentation-tiny.onnx'));
    await fs.copyFile(models.embedding, path.join(modelsDir, 'embedding-tiny.onnx'));
    if (options.vad) await fs.copyFile(models.vad!, path.join(modelsDir, 'silero-vad-tiny.onnx'));
    const route = await suite.ts.api.post('/api/ai/routes', { token: suite.ts.adminToken, body: { name: 'Desk whisper', kind: 'audio', provider: 'local-whisper', model: 'ggml-tiny-test.bin' } });
    assert.equal(route.status, 201, route.text);
    // The tiny models put espeak-ng's two voices about 1.7 apart in cosine distance.
    assert.equal((await suite.setConfig({ audio_local_quality: 'fast', audio_speaker_threshold: 1.4 })).status, 200);
    suite.rep = await suite.ts.user();
  });
  after(() => suite.ts?.close());
  return suite;
}
