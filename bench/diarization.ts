// Issue 26 benchmark, with the generated tiny speaker models (tests/support/tiny-speaker-models.ts) and the tiny
// Whisper model, on mono calls spoken by espeak-ng's male and female voices:
// 1. Diarization through the server (the job's `speakers` stage: the sherpa-onnx child process, reading the WAV,
//    diarizing, the speakers' embeddings, writing each speaker's WAV) against OfflineSpeakerDiarization.process
//    called directly in this process on the same samples, in the same run. Target ≤ 1.15×.
// 2. Whisper's time (the `transcribing` stage) on a call that is 40 % silence, with the VAD model installed against
//    without it (the ratio is reported).
// 3. GET /api/health p99 < 50 ms throughout.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { percentile, probeHealth, startBenchServer, type BenchServer } from './harness.js';
import { writeTinyWhisperModel } from '../tests/support/tiny-whisper-model.js';
import { writeTinySpeakerModels } from '../tests/support/tiny-speaker-models.js';
import { monoCall } from '../tests/api/speaker-fixtures.js';
import { whisperCppProgram } from '../server/audio/local-whisper.js';

/** 10 minutes; BENCH_DIARIZATION_SECONDS shortens it for a quick look (the targets are for 600). */
const CALL_SECONDS = Number(process.env.BENCH_DIARIZATION_SECONDS ?? 600);

const run = (program: string, args: string[]) => execFileSync(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
const seconds = (file: string) => Number(execFileSync('soxi', ['-D', file]).toString().trim());

interface Sherpa {
  readWave(file: string): { samples: Float32Array; sampleRate: number };
  OfflineSpeakerDiarization: new (config: object) => { process(samples: Float32Array): unknown[] };
}

/** The test call repeated to `total` seconds, with `silence` seconds of silence after each repetition. */
function longCall(source: string, target: string, total: number, silence: number): void {
  const padded = `${target}.cycle.wav`;
  run('sox', [source, padded, 'pad', '0', String(silence)]);
  const repeats = Math.ceil(total / seconds(padded)) - 1;
  run('sox', [padded, `${target}.long.wav`, 'repeat', String(repeats)]);
  run('sox', [`${target}.long.wav`, target, 'trim', '0', String(total)]);
}

/** Sends the call as an async job and follows it: the seconds each stage took, and the transcription. */
async function timedJob(server: BenchServer, file: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('async', 'true');
  form.append('file', await openAsBlob(file, { type: 'audio/wav' }), path.basename(file));
  const started = performance.now();
  const res = await fetch(`${server.url}/api/audio/transcribe`, { method: 'POST', headers: { authorization: `Bearer ${server.adminToken}` }, body: form });
  const job = ((await res.json()) as { data: { id: number } }).data;
  const stages = new Map<string, number>();
  let last = '';
  for (;;) {
    const current = await server.api<{ state: string; stage: string; transcription_id: number | null; error: { message: string } | null }>('GET', `/api/audio/jobs/${job.id}`, server.adminToken);
    if (current.stage !== last) {
      stages.set(current.stage, performance.now());
      last = current.stage;
    }
    if (current.state === 'done' || current.state === 'failed') {
      if (current.state === 'failed') throw new Error(`job failed: ${current.error?.message}`);
      const t = await server.api<{ segments: { speaker?: string }[]; speech_seconds: number | null; speaker_method: string | null }>('GET', `/api/audio/transcriptions/${current.transcription_id}`, server.adminToken);
      const at = (stage: string) => stages.get(stage);
      const span = (from: string, to: string) => ((at(to) ?? performance.now()) - (at(from) ?? started)) / 1000;
      return { total: (performance.now() - started) / 1000, speakers: at('speakers') ? span('speakers', 'transcribing') : 0, transcribing: span('transcribing', 'finished'), transcription: t };
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export default async function diarization(): Promise<void> {
  const program = whisperCppProgram();
  if (!program || !(await fs.stat(program).catch(() => undefined))) {
    console.log('whisper.cpp is not built (npm run build:whisper): skipped');
    return;
  }
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-bench-diarization-'));
  const server = await startBenchServer();
  try {
    const call = await monoCall();
    const speechCall = path.join(scratch, 'call-10min.wav');
    longCall(call.wav, speechCall, CALL_SECONDS, 0);
    // 40 % silence: the test call holds 6 pauses of 0.8 s; a long silence after each repetition makes up the rest.
    const callLength = seconds(call.wav);
    const silentCall = path.join(scratch, 'call-40pc-silence.wav');
    longCall(call.wav, silentCall, CALL_SECONDS, (0.4 * callLength - call.turns.length * 0.8) / 0.6);

    const models = await writeTinySpeakerModels(path.join(scratch, 'models'));
    const shelf = path.join(server.dataDir, 'models');
    await fs.mkdir(shelf, { recursive: true });
    await writeTinyWhisperModel(path.join(shelf, 'ggml-tiny-bench.bin'), { segmentSeconds: 30 });
    await fs.copyFile(models.segmentation, path.join(shelf, 'segmentation.onnx'));
    await fs.copyFile(models.embedding, path.join(shelf, 'embedding.onnx'));
    await server.api('PUT', '/api/system/config', server.adminToken, { configs: { audio_local_quality: 'fast' } });
    await server.api('POST', '/api/ai/routes', server.adminToken, { name: 'Desk whisper', kind: 'audio', provider: 'local-whisper', model: 'ggml-tiny-bench.bin' });
    // The route's status loads the models once (in the child process), as the admin screen does.
    await server.api('GET', '/api/ai/routes/audio', server.adminToken);

    // 1. Direct: the same samples, the same models, OfflineSpeakerDiarization.process in this process.
    const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as Sherpa;
    const wave = sherpa.readWave(speechCall);
    const diarizer = new sherpa.OfflineSpeakerDiarization({
      segmentation: { pyannote: { model: models.segmentation }, numThreads: Math.max(1, Math.min(8, os.availableParallelism() - 1)) },
      embedding: { model: models.embedding, numThreads: Math.max(1, Math.min(8, os.availableParallelism() - 1)) },
      clustering: { numClusters: 2 },
      minDurationOn: 0.3,
      minDurationOff: 0.5,
    });
    let started = performance.now();
    const directSegments = diarizer.process(wave.samples);
    const direct = (performance.now() - started) / 1000;

    const probe = probeHealth(server.url);
    const served = await timedJob(server, speechCall, { speakers: 'true', language: 'en' });

    // 2. Whisper on a call that is 40 % silence, without a VAD model, then with one.
    const withoutVad = await timedJob(server, silentCall, { language: 'en' });
    await fs.copyFile(models.vad!, path.join(shelf, 'silero-vad.onnx'));
    const withVad = await timedJob(server, silentCall, { language: 'en' });
    const health = await probe.stop();

    const ratio = served.speakers / direct;
    const p99 = percentile(health, 0.99);
    const labels = new Set(served.transcription.segments.map((s) => s.speaker));
    console.log(`call: ${CALL_SECONDS} s mono WAV, ${directSegments.length} speaker turns found directly; through the server ${served.transcription.segments.length} segments, speakers ${[...labels].join('/')}`);
    console.log(`OfflineSpeakerDiarization.process, directly              ${direct.toFixed(2)} s`);
    console.log(`server, the job's speakers stage (child process)         ${served.speakers.toFixed(2)} s  = ${ratio.toFixed(2)}x direct  [target <= 1.15x] ${ratio <= 1.15 ? 'ok' : 'MISSED'}`);
    console.log(`  (whole transcription with speakers: ${served.total.toFixed(1)} s, of which Whisper ${served.transcribing.toFixed(1)} s)`);
    console.log(`Whisper on a call that is 40 % silence: without VAD ${withoutVad.transcribing.toFixed(2)} s, with VAD ${withVad.transcribing.toFixed(2)} s (speech ${withVad.transcription.speech_seconds} s of ${CALL_SECONDS}) = ${(withVad.transcribing / withoutVad.transcribing).toFixed(2)}x`);
    console.log(`GET /api/health throughout: ${health.length} requests, p50 ${percentile(health, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms  [target < 50 ms] ${p99 < 50 ? 'ok' : 'MISSED'}`);
  } finally {
    await server.close();
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
