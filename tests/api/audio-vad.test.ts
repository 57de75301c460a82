// Speakers of mono calls, voiceprints, transcript revisions and exports, over real HTTP: sherpa-onnx (in its child
// process) with the generated tiny speaker models, whisper.cpp with the tiny Whisper model, calls spoken by
// espeak-ng's male and female voices.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import { startTestServer, type TestServer } from '../support/server.js';
import { writeTinyWhisperModel } from '../support/tiny-whisper-model.js';
import { writeTinySpeakerModels } from '../support/tiny-speaker-models.js';
import { form } from './media-fixtures.js';
import { LOCAL_PATH_MISSING } from './audio-fixtures.js';
import { FEMALE_VOICE, monoCall, type MonoCall } from './speaker-fixtures.js';

interface Segment {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

/** The voice whose turn holds most of the segment; undefined when it lies in no turn. */
function voiceAt(call: MonoCall, s: Segment): 'male' | 'female' | undefined {
  const overlap = (t: { start: number; end: number }) => Math.max(0, Math.min(t.end, s.end) - Math.max(t.start, s.start));
  const best = [...call.turns].sort((a, b) => overlap(b) - overlap(a))[0]!;
  return overlap(best) > 0 ? best.voice : undefined;
}

/** Every segment lies in a turn, and each label belongs to one voice only; returns label → voice. */
function labelsByVoice(call: MonoCall, segments: Segment[]): Map<string, string> {
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

describe('VAD before Whisper', { skip: LOCAL_PATH_MISSING }, () => {
  let ts: TestServer;
  let call: MonoCall;
  let rep: { id: number; token: string };
  let models: { segmentation: string; embedding: string; vad?: string };
  const modelsDir = () => path.join(ts.dataDir, 'models');

  const transcribe = async (token: string, file: string, fields: Record<string, string> = { speakers: 'true' }) =>
    ts.api.request('POST', '/api/audio/transcribe', { token, form: form(fields, { name: path.basename(file), data: new Uint8Array(await fs.readFile(file)) }) });
  const setConfig = (configs: Record<string, unknown>) => ts.api.put('/api/system/config', { token: ts.adminToken, body: { configs } });
  const routeStatus = async () => (await ts.api.get('/api/ai/routes/audio', { token: rep.token })).body.data[0];

  before(async () => {
    [ts, call] = await Promise.all([startTestServer(), monoCall()]);
    await fs.mkdir(modelsDir(), { recursive: true });
    await writeTinyWhisperModel(path.join(modelsDir(), 'ggml-tiny-test.bin'), { segmentSeconds: 30 });
    models = await writeTinySpeakerModels(path.join(ts.dataDir, 'generated'));
    // Copied into DATA_DIR/models, as an admin may do instead of uploading.
    await fs.copyFile(models.segmentation, path.join(modelsDir(), 'segmentation-tiny.onnx'));
    await fs.copyFile(models.embedding, path.join(modelsDir(), 'embedding-tiny.onnx'));
    await fs.copyFile(models.vad!, path.join(modelsDir(), 'silero-vad-tiny.onnx'));
    const route = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { name: 'Desk whisper', kind: 'audio', provider: 'local-whisper', model: 'ggml-tiny-test.bin' } });
    assert.equal(route.status, 201, route.text);
    // The tiny models put espeak-ng's two voices about 1.7 apart in cosine distance.
    assert.equal((await setConfig({ audio_local_quality: 'fast', audio_speaker_threshold: 1.4 })).status, 200);
    rep = await ts.user();
  });
  after(() => ts?.close());

  test('VAD: Whisper hears only speech, on the call timeline; Chinese comes out Simplified unless told otherwise', async () => {
    // Without speakers, the installed VAD model finds the speech of a mono call.
    const res = await transcribe(rep.token, call.wav, {});
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.has_speakers, false);
    assert.ok(res.body.data.speech_seconds > 20 && res.body.data.speech_seconds < res.body.data.audio.duration - 3, `speech_seconds ${res.body.data.speech_seconds}`);
    for (const s of res.body.data.segments as Segment[]) assert.ok(voiceAt(call, s), `segment ${JSON.stringify(s)} lies in speech`);
    assert.equal(FEMALE_VOICE, 'en+f3');
  });
});
