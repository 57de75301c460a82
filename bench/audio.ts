// Issue 11 benchmark: a 10-minute stereo call (generated: two espeak-ng voices taking turns, one per channel, encoded
// to mp3 as a call recorder would) transcribed with speakers on the local route of the real server (a child
// process), against the same whisper.cpp program and model run directly on the same call as a 16 kHz WAV, in the
// same run. Targets: the server's total wall time (upload, ffprobe, ffmpeg decode, the per-channel speech rule,
// whisper.cpp, storing) ≤ 1.15× the direct run, and GET /api/health answering with p99 < 50 ms meanwhile.
// Both runs use the tiny generated model with greedy decoding (audio_local_quality=fast): with temperature
// fallback the random model retries every window, which would measure the model and not the pipeline.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { percentile, probeHealth, startBenchServer } from './harness.js';
import { writeTinyWhisperModel } from '../tests/support/tiny-whisper-model.js';
import { whisperArgs, whisperCppProgram } from '../server/audio/local-whisper.js';

/** 10 minutes; BENCH_AUDIO_SECONDS shortens it for a quick look (the target is for 600). */
const CALL_SECONDS = Number(process.env.BENCH_AUDIO_SECONDS ?? 600);
const FFMPEG = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

const run = (program: string, args: string[]) => execFileSync(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** The call: the rep on the left, then the customer on the right, each line followed by a pause, repeated to 10 minutes. */
async function makeCall(dir: string): Promise<{ mp3: string; wav: string }> {
  const f = (name: string) => path.join(dir, name);
  run('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', f('rep-raw.wav'), 'Good morning, this is Anna from the bank. I am calling about the fixed rate offer we discussed last week. Do you have a few minutes?']);
  run('espeak-ng', ['-v', 'en+f3', '-s', '160', '-w', f('customer-raw.wav'), 'Yes, I have some time. What is the rate, and is there a fee if I pay the loan back early?']);
  run('sox', [f('rep-raw.wav'), '-r', '16000', f('rep.wav'), 'pad', '0', '0.7']);
  run('sox', [f('customer-raw.wav'), '-r', '16000', f('customer.wav'), 'pad', '0', '0.9']);
  const seconds = (file: string) => Number(execFileSync('soxi', ['-D', file]).toString().trim());
  const [rep, customer] = [seconds(f('rep.wav')), seconds(f('customer.wav'))];
  run('sox', [f('rep.wav'), f('left.wav'), 'pad', '0', String(customer)]);
  run('sox', [f('customer.wav'), f('right.wav'), 'pad', String(rep), '0']);
  run('sox', ['-M', f('left.wav'), f('right.wav'), f('cycle.wav')]);
  const repeats = Math.ceil(CALL_SECONDS / (rep + customer)) - 1;
  run('sox', [f('cycle.wav'), f('call-long.wav'), 'repeat', String(repeats)]);
  run('sox', [f('call-long.wav'), f('call.wav'), 'trim', '0', String(CALL_SECONDS)]);
  run(FFMPEG, ['-nostdin', '-v', 'error', '-y', '-i', f('call.wav'), '-c:a', 'libmp3lame', '-b:a', '64k', f('call.mp3')]);
  // The same call as whisper.cpp reads it: 16 kHz 16-bit PCM (the direct run is given the decoding for free).
  run(FFMPEG, ['-nostdin', '-v', 'error', '-y', '-i', f('call.mp3'), '-ar', '16000', '-c:a', 'pcm_s16le', f('call-16k.wav')]);
  return { mp3: f('call.mp3'), wav: f('call-16k.wav') };
}

function runDirect(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`whisper.cpp exited with ${code}`))));
  });
}

export default async function audio(): Promise<void> {
  const program = whisperCppProgram();
  if (!program || !(await fs.stat(program).catch(() => undefined))) {
    console.log('whisper.cpp is not built (npm run build:whisper): skipped');
    return;
  }
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-bench-audio-'));
  const server = await startBenchServer();
  try {
    const call = await makeCall(scratch);
    const model = path.join(server.dataDir, 'models', 'ggml-tiny-bench.bin');
    await fs.mkdir(path.dirname(model), { recursive: true });
    await writeTinyWhisperModel(model, { segmentSeconds: 30 });
    await server.api('PUT', '/api/system/config', server.adminToken, { configs: { audio_local_quality: 'fast' } });
    await server.api('POST', '/api/ai/routes', server.adminToken, { name: 'Desk whisper', kind: 'audio', provider: 'local-whisper', model: 'ggml-tiny-bench.bin' });

    // Direct: whisper.cpp with the arguments the server would use, on the call as a 16 kHz WAV.
    const out = path.join(scratch, 'direct');
    let started = performance.now();
    await runDirect(program, whisperArgs({ model, wav: call.wav, out, language: 'en', quality: 'fast' }));
    const direct = performance.now() - started;

    // The server, while a client asks for /api/health over and over.
    const probe = probeHealth(server.url);
    const form = new FormData();
    form.append('speakers', 'true');
    form.append('language', 'en');
    form.append('file', await openAsBlob(call.mp3, { type: 'audio/mpeg' }), 'call.mp3');
    started = performance.now();
    const res = await fetch(`${server.url}/api/audio/transcribe`, { method: 'POST', headers: { authorization: `Bearer ${server.adminToken}` }, body: form });
    const served = performance.now() - started;
    const health = await probe.stop();
    const body = (await res.json()) as { data: { has_speakers: boolean; segments: unknown[]; audio: { duration: number } } | null; message: string };
    if (!res.ok || !body.data) throw new Error(`transcription failed: ${res.status} ${body.message}`);

    const ratio = served / direct;
    const p99 = percentile(health, 0.99);
    console.log(`call: ${body.data.audio.duration.toFixed(0)} s stereo mp3, ${body.data.segments.length} segments, speakers: ${body.data.has_speakers}`);
    console.log(`whisper.cpp run directly on the 16 kHz WAV          ${(direct / 1000).toFixed(1)} s`);
    console.log(`server, local route (upload + decode + channels)    ${(served / 1000).toFixed(1)} s  = ${ratio.toFixed(2)}x direct  [target <= 1.15x] ${ratio <= 1.15 ? 'ok' : 'MISSED'}`);
    console.log(`GET /api/health meanwhile: ${health.length} requests, p50 ${percentile(health, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms  [target < 50 ms] ${p99 < 50 ? 'ok' : 'MISSED'}`);
  } finally {
    await server.close();
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
