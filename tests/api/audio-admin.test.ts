// Audio routes and models for admins, the cloud fallback policy, and the call_analysis skill on labelled transcripts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { writeTinyWhisperModel } from '../support/tiny-whisper-model.js';
import { form } from './media-fixtures.js';
import { chatOk, useFakeModel, workerChat } from './workbench.fixtures.js';
import { LOCAL_PATH_MISSING, callFixtures, toneWav } from './audio-fixtures.js';

const CHUNK = 5_242_880;

describe('audio routes, models, fallback policy and call analysis', () => {
  let ts: TestServer;
  let cloud: FakeModel;
  let employee: { id: number; token: string };
  let wav: Uint8Array;
  const admin = () => ts.adminToken;
  const modelsDir = () => path.join(ts.dataDir, 'models');

  const addRoute = async (body: Record<string, unknown>) => {
    const res = await ts.api.post('/api/ai/routes', { token: admin(), body: { kind: 'audio', ...body } });
    assert.equal(res.status, 201, res.text);
    return res.body.data as { id: number };
  };
  const clearRoutes = async () => {
    for (const route of (await ts.api.get('/api/ai/routes', { token: admin() })).body.data) await ts.api.delete(`/api/ai/routes/${route.id}`, { token: admin() });
  };
  const setConfig = async (configs: Record<string, unknown>) => assert.equal((await ts.api.put('/api/system/config', { token: admin(), body: { configs } })).status, 200);
  const transcribe = (token: string, fields: Record<string, string> = {}) => ts.api.post('/api/audio/transcribe', { token, form: form(fields, { name: 'call.wav', data: wav }) });
  const statusOf = async () => (await ts.api.get('/api/ai/routes/audio', { token: employee.token })).body.data as { name: string; available: boolean; reason_unavailable: string | null; is_local: boolean; model: string }[];

  before(async () => {
    [ts, cloud] = await Promise.all([startTestServer(), startFakeModel()]);
    employee = await ts.user();
    await fs.mkdir(modelsDir(), { recursive: true });
    await writeTinyWhisperModel(path.join(modelsDir(), 'ggml-tiny-test.bin'), { segmentSeconds: 30 });
    await setConfig({ audio_local_quality: 'fast' });
    wav = LOCAL_PATH_MISSING ? new Uint8Array(0) : new Uint8Array(await fs.readFile((await callFixtures()).files['call-mono.wav']!));
  });
  after(async () => {
    await cloud?.close();
    await ts?.close();
  });

  test('the audio route listing says of each route whether it can run here and exactly what is missing', async () => {
    await clearRoutes();
    await addRoute({ name: 'Missing model', provider: 'local-whisper', model: 'ggml-nowhere.bin', priority: 1 });
    await addRoute({ name: 'Desk whisper', provider: 'local-whisper', model: 'ggml-tiny-test.bin', priority: 2 });
    await addRoute({ name: 'Cloud STT', provider: 'openai-compatible', base_url: cloud.baseUrl, model: 'whisper-1', is_local: false });
    const noUrl = await ts.api.post('/api/ai/routes', { token: admin(), body: { kind: 'audio', name: 'No URL', provider: 'openai-compatible', model: 'x' } });
    assert.deepEqual([noUrl.status, noUrl.body.error], [400, 'validation_failed'], 'only local-whisper routes go without a URL');

    const routes = await statusOf();
    assert.deepEqual(routes.map((r) => [r.name, r.is_local, r.model, r.available]), [
      ['Missing model', true, 'ggml-nowhere.bin', false],
      ['Desk whisper', true, 'ggml-tiny-test.bin', true],
      ['Cloud STT', false, 'whisper-1', false],
    ]);
    assert.match(routes[0]!.reason_unavailable!, /model file ggml-nowhere\.bin not found/);
    assert.equal(routes[1]!.reason_unavailable, null);
    assert.match(routes[2]!.reason_unavailable!, /audio_cloud_fallback/);
    await setConfig({ audio_cloud_fallback: true });
    assert.deepEqual((await statusOf()).map((r) => r.available), [false, true, true]);
    await setConfig({ audio_cloud_fallback: false });
  });

  test('cloud fallback only when the system allows it and the request does not forbid it; every answer says which route ran', { skip: LOCAL_PATH_MISSING }, async () => {
    await clearRoutes();
    // A file with the ggml magic and nothing sensible after it: whisper.cpp fails to load it, so the local route fails.
    await fs.writeFile(path.join(modelsDir(), 'ggml-broken.bin'), Buffer.concat([Buffer.from('lmgg', 'latin1'), crypto.randomBytes(2048)]));
    const local = await addRoute({ name: 'Broken whisper', provider: 'local-whisper', model: 'ggml-broken.bin' });
    const remote = await addRoute({ name: 'Cloud STT', provider: 'openai-compatible', base_url: cloud.baseUrl, model: 'whisper-1', is_local: false });
    const sent = cloud.requests.length;

    const kept = await transcribe(employee.token);
    assert.equal(kept.status, 500, kept.text);
    assert.equal(kept.body.error, 'model_route_failed');
    assert.equal(kept.body.details.cloud_refused.reason, 'system_config');
    assert.deepEqual(kept.body.details.cloud_refused.routes.map((r: { id: number }) => r.id), [remote.id]);
    assert.equal(cloud.requests.length, sent, 'the audio stayed on this machine');

    await setConfig({ audio_cloud_fallback: true });
    const fellBack = await transcribe(employee.token, { speakers: 'true' });
    assert.equal(fellBack.status, 200, fellBack.text);
    const t = fellBack.body.data;
    assert.deepEqual([t.route.id, t.left_local, t.capability_degraded], [remote.id, true, true]);
    assert.deepEqual(t.attempts.map((a: { route: { id: number }; ok: boolean }) => [a.route.id, a.ok]), [[local.id, false], [remote.id, true]]);
    assert.match(t.capability_zh, /离开本机/);
    assert.match(t.capability_zh, /未进行说话人分离/);
    assert.equal(cloud.requests.length, sent + 1);

    const refused = await transcribe(employee.token, { allow_cloud: 'false' });
    assert.equal(refused.status, 500, refused.text);
    assert.equal(refused.body.details.cloud_refused.reason, 'request');
    assert.equal(cloud.requests.length, sent + 1, 'allow_cloud=false keeps the audio here');

    // With no local route at all, the cloud routes are simply the configured way, as before.
    await setConfig({ audio_cloud_fallback: false });
    await ts.api.delete(`/api/ai/routes/${local.id}`, { token: admin() });
    const cloudOnly = await transcribe(employee.token);
    assert.equal(cloudOnly.status, 200, cloudOnly.text);
    assert.deepEqual([cloudOnly.body.data.route.is_local, cloudOnly.body.data.left_local], [false, false]);
    const forbidden = await transcribe(employee.token, { allow_cloud: 'false' });
    assert.deepEqual([forbidden.status, forbidden.body.error, forbidden.body.details.cloud_refused.reason], [500, 'no_model_route', 'request']);
    await fs.rm(path.join(modelsDir(), 'ggml-broken.bin'));
  });

  test('models: listed with size and sha256, installed in resumable chunks, verified and removed by an admin', async () => {
    const tiny = await fs.readFile(path.join(modelsDir(), 'ggml-tiny-test.bin'));
    const sha256 = crypto.createHash('sha256').update(tiny).digest('hex');
    assert.equal((await ts.api.get('/api/audio/models', { token: employee.token })).status, 403);
    const listed = await ts.api.get('/api/audio/models', { token: admin() });
    assert.equal(listed.status, 200, listed.text);
    const found = listed.body.data.find((m: { name: string }) => m.name === 'ggml-tiny-test.bin');
    assert.deepEqual([found.size, found.sha256, found.location, found.verification, found.official], [tiny.length, sha256, 'data', 'unverified', null]);

    // Install a copy under another name: two chunks, the second sent first, the state read back in between.
    const init = await ts.api.post('/api/audio/models', { token: admin(), body: { filename: 'ggml-copy.bin', file_size: tiny.length, sha256 } });
    assert.equal(init.status, 201, init.text);
    const { upload_id: uploadId, chunk_count: chunks, chunk_url: chunkUrl, complete_url: completeUrl } = init.body.data;
    assert.equal(chunks, Math.ceil(tiny.length / CHUNK));
    const sendChunk = (index: number) =>
      ts.api.post(`${chunkUrl}?upload_id=${uploadId}&chunk_index=${index}`, { token: admin(), raw: new Uint8Array(tiny.subarray(index * CHUNK, (index + 1) * CHUNK)), headers: { 'content-type': 'application/octet-stream' } });
    assert.equal((await sendChunk(chunks - 1)).status, 200);
    const state = await ts.api.get(`/api/media/upload/${uploadId}`, { token: admin() });
    assert.deepEqual(state.body.data.missing, Array.from({ length: chunks - 1 }, (_, i) => i));
    const early = await ts.api.post(completeUrl, { token: admin() });
    assert.deepEqual([early.status, early.body.error], [400, 'media.chunks_missing']);
    for (let i = 0; i < chunks - 1; i++) assert.equal((await sendChunk(i)).status, 200);
    const asMedia = await ts.api.post('/api/media/upload/complete', { token: admin(), body: { upload_id: uploadId } });
    assert.deepEqual([asMedia.status, asMedia.body.error], [409, 'media.wrong_upload_purpose']);
    const done = await ts.api.post(completeUrl, { token: admin() });
    assert.equal(done.status, 201, done.text);
    assert.deepEqual([done.body.data.name, done.body.data.sha256, done.body.data.size], ['ggml-copy.bin', sha256, tiny.length]);
    assert.ok((await fs.readFile(path.join(modelsDir(), 'ggml-copy.bin'))).equals(tiny));
    assert.equal((await ts.api.post(completeUrl, { token: admin() })).status, 200, 'completing again answers the same model');
    assert.equal((await ts.api.post('/api/audio/models/ggml-copy.bin/verify', { token: admin() })).body.data.sha256, sha256);

    const duplicate = await ts.api.post('/api/audio/models', { token: admin(), body: { filename: 'ggml-copy.bin', file_size: 10 } });
    assert.deepEqual([duplicate.status, duplicate.body.error], [409, 'audio.model_exists']);
    for (const filename of ['../evil.bin', 'model.exe', 'a/b.bin']) {
      assert.equal((await ts.api.post('/api/audio/models', { token: admin(), body: { filename, file_size: 10 } })).status, 400, filename);
    }
    const notModel = await ts.api.post('/api/audio/models', { token: admin(), body: { filename: 'ggml-text.bin', file_size: 11 } });
    await ts.api.post(`/api/media/upload/chunk?upload_id=${notModel.body.data.upload_id}&chunk_index=0`, { token: admin(), raw: new TextEncoder().encode('hello world'), headers: { 'content-type': 'application/octet-stream' } });
    const refused = await ts.api.post(notModel.body.data.complete_url, { token: admin() });
    assert.deepEqual([refused.status, refused.body.error], [400, 'audio.invalid_model']);

    const removed = await ts.api.delete('/api/audio/models/ggml-copy.bin', { token: admin() });
    assert.deepEqual(removed.body.data, { name: 'ggml-copy.bin', deleted: true });
    assert.equal((await ts.api.delete('/api/audio/models/ggml-copy.bin', { token: admin() })).status, 404);
    assert.equal((await ts.api.delete('/api/audio/models/ggml-copy.bin', { token: employee.token })).status, 403);
  });

  test('call_analysis: figures computed from the labelled transcript, objections and commitments from the chat model; no speakers, no analysis', async () => {
    await clearRoutes();
    await addRoute({ name: 'Cloud STT', provider: 'openai-compatible', base_url: cloud.baseUrl, model: 'whisper-1', is_local: false });
    cloud.behave({
      transcription: {
        text: 'call',
        segments: [
          { start: 0, end: 4, text: 'Hello, how can I help you today?', speaker: 'rep' },
          { start: 3.5, end: 8, text: 'I want a loan. Is the rate fixed?', speaker: 'customer' },
          { start: 8.5, end: 15, text: 'Yes, it is fixed for a year. We will send the contract tomorrow.', speaker: 'rep' },
          { start: 15.2, end: 16, text: 'Okay.', speaker: 'customer' },
        ],
      },
    });
    const upload = (speakers: string) => ts.api.post('/api/audio/transcribe', { token: employee.token, form: form({ speakers }, { name: 'call.wav', data: new Uint8Array(Buffer.from('RIFF....WAVEfmt ')) }) });
    const fakeWav = await upload('true');
    // A header alone is broken audio: the real file is needed even for the cloud.
    assert.deepEqual([fakeWav.status, fakeWav.body.error], [400, 'invalid_audio']);
    const labelled = (await ts.api.post('/api/audio/transcribe', { token: employee.token, form: form({ speakers: 'true' }, { name: 'call.wav', data: wav.length ? wav : toneWav(0.25) }) })).body.data;
    assert.equal(labelled.has_speakers, true);

    const figures = await ts.api.get(`/api/audio/transcriptions/${labelled.id}/figures`, { token: employee.token });
    assert.equal(figures.status, 200, figures.text);
    const rep = figures.body.data.speakers.find((s: { speaker: string }) => s.speaker === 'rep');
    const customer = figures.body.data.speakers.find((s: { speaker: string }) => s.speaker === 'customer');
    assert.deepEqual([rep.talk_seconds, rep.questions, rep.turns, rep.longest_monologue_seconds, rep.interruptions], [10.5, 1, 2, 6.5, 0]);
    assert.deepEqual([customer.talk_seconds, customer.questions, customer.interruptions], [5.3, 1, 1]);
    assert.equal(rep.talk_ratio, 0.665);
    assert.deepEqual(figures.body.data.interruptions, [{ speaker: 'customer', interrupted: 'rep', at: 3.5 }]);
    assert.deepEqual(figures.body.data.longest_monologue, { speaker: 'rep', start: 8.5, end: 15, seconds: 6.5 });
    assert.equal((await ts.api.get(`/api/audio/transcriptions/${labelled.id}/figures`, { token: ts.adminToken })).status, 404, "another user's transcription");

    const chat = await useFakeModel(ts, { chunks: ['## Objections\n- customer: is the rate fixed? (answered)\n\n## Commitments\n- rep: send the contract tomorrow'] });
    try {
      const reply = await chatOk(ts, employee.token, { message: 'Analyse this call.', skill_key: 'call_analysis', documents: [{ transcription_id: labelled.id }] });
      const prompt = chat.requests.at(-1)!.body.messages!.at(-1)!.content;
      assert.match(prompt, /\| rep \| 10\.5 \| 66\.5% \| 2 \| 6\.5 \| 1 \| 0 \|/, 'the model sees the computed figures');
      assert.match(prompt, /customer: I want a loan\. Is the rate fixed\?/);
      const artifact = reply.events.find((e) => e.type === 'artifact')!.artifact;
      assert.match(artifact.content, /^# Call analysis\n\n## Figures \(computed from the transcript\)/);
      assert.match(artifact.content, /Interruptions: customer interrupted rep at 3\.5 s\./);
      assert.match(artifact.content, /## Commitments\n- rep: send the contract tomorrow/);
      const runs = (await ts.api.get(`/api/worker/my-tasks/${reply.taskId}/runs`, { token: employee.token })).body.data;
      const doc = (Array.isArray(runs) ? runs : runs.items)[0].input.documents[0];
      assert.deepEqual([doc.transcription.id, doc.transcription.route.name, doc.transcription.left_local, doc.transcription.has_speakers], [labelled.id, 'Cloud STT', false, true], 'the run records where the transcript came from');

      cloud.behave({ transcription: { text: 'one voice', segments: [{ start: 0, end: 2, text: 'one voice' }] } });
      const plain = (await ts.api.post('/api/audio/transcribe', { token: employee.token, form: form({}, { name: 'call.wav', data: wav.length ? wav : toneWav(0.25) }) })).body.data;
      const requests = chat.requests.length;
      const refused = await workerChat(ts, employee.token, { message: 'Analyse this call.', skill_key: 'call_analysis', documents: [{ transcription_id: plain.id }] });
      assert.deepEqual([refused.status, refused.envelope.error], [400, 'workbench.speakers_required']);
      assert.equal(chat.requests.length, requests, 'nothing went to the model');
      const noFigures = await ts.api.get(`/api/audio/transcriptions/${plain.id}/figures`, { token: employee.token });
      assert.deepEqual([noFigures.status, noFigures.body.error], [400, 'workbench.speakers_required']);
    } finally {
      await chat.close();
      cloud.behave({});
    }
  });
});
