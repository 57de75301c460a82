import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { form } from './media-fixtures.js';
import { chatOk, useFakeModel, workerChat } from './workbench.fixtures.js';
import { writeTinyWhisperModel } from '../support/tiny-whisper-model.js';
import { toneWav } from './audio-fixtures.js';
import { ESPEAK_MISSING as ESPEAK_MISSING_REASON, WHISPER_CPP, WHISPER_CPP_MISSING as WHISPER_CPP_MISSING_REASON, skipUnlessCI } from '../support/tools.js';

const ESPEAK_MISSING = skipUnlessCI(ESPEAK_MISSING_REASON);
const WHISPER_CPP_MISSING = skipUnlessCI(WHISPER_CPP_MISSING_REASON);
const CLOUD_KEY = 'sk-audio-cloud-4242';

describe('speech-to-text /api/audio', () => {
  let ts: TestServer;
  let cloud: FakeModel;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  const tone = toneWav(0.25);

  const admin = () => ts.adminToken;
  const addRoute = async (body: Record<string, unknown>) => {
    const res = await ts.api.post('/api/ai/routes', { token: admin(), body: { kind: 'audio', ...body } });
    assert.equal(res.status, 201, res.text);
    return res.body.data as { id: number; name: string };
  };
  const addCloudRoute = (extra: Record<string, unknown> = {}) =>
    addRoute({ name: 'Cloud STT', provider: 'openai-compatible', base_url: cloud.baseUrl, api_key: CLOUD_KEY, model: 'whisper-1', is_local: false, ...extra });
  const addMissingLocalRoute = () =>
    addRoute({ name: 'Desk whisper', provider: 'local-whisper', model: path.join(ts.dataDir, 'no-such-ggml-base.bin'), priority: 500 });
  const clearRoutes = async () => {
    const list = await ts.api.get('/api/ai/routes', { token: admin() });
    for (const route of list.body.data) await ts.api.delete(`/api/ai/routes/${route.id}`, { token: admin() });
  };
  const transcribe = (token: string | undefined, name: string, data: Uint8Array, fields: Record<string, string> = {}) =>
    ts.api.post('/api/audio/transcribe', { token, form: form(fields, { name, data }) });
  const setConfig = async (configs: Record<string, unknown>) => {
    const res = await ts.api.put('/api/system/config', { token: admin(), body: { configs } });
    assert.equal(res.status, 200, res.text);
  };
  const lastCalls = async (n: number) => (await ts.api.get(`/api/ai/calls?size=${n}`, { token: admin() })).body.data.items;

  before(async () => {
    [ts, cloud] = await Promise.all([startTestServer(), startFakeModel()]);
    alice = await ts.user();
    bob = await ts.user();
    // Greedy decoding: the generated model would otherwise retry every window at higher temperatures.
    await ts.api.put('/api/system/config', { token: ts.adminToken, body: { configs: { audio_local_quality: 'fast' } } });
  });
  after(async () => {
    await cloud?.close();
    await ts?.close();
  });

  test('401 without a token', async () => {
    assert.equal((await transcribe(undefined, 'a.wav', tone)).status, 401);
    assert.equal((await ts.api.get('/api/audio/transcriptions')).status, 401);
    const detail = await ts.api.get('/api/audio/transcriptions/1');
    assert.equal(detail.status, 401);
    assert.equal(detail.body.error, 'unauthorized');
  });

  test('400 for a missing file, content that is not audio or bad fields', async () => {
    const noFile = await ts.api.post('/api/audio/transcribe', { token: alice.token, form: form({ language: 'en' }) });
    assert.equal(noFile.status, 400);
    assert.equal(noFile.body.error, 'validation_failed');
    assert.equal(noFile.body.data, null);

    // The format comes from the content, not the name: text is refused whatever it is called.
    for (const name of ['notes.txt', 'clip.mp3', 'no-extension', 'wav']) {
      const res = await transcribe(alice.token, name, new TextEncoder().encode('just some words, not a sound'));
      assert.equal(res.status, 400, name);
      assert.equal(res.body.error, 'unsupported_audio', name);
    }
    const json = await ts.api.post('/api/audio/transcribe', { token: alice.token, body: { file: 'a.wav' } });
    assert.equal(json.status, 400);

    for (const fields of [{ language: 'english please' }, { language: 'xx' }, { language: 'eng' }, { diarize: 'maybe' }, { speakers: 'yes' }, { channels: 'rep' }, { channels: 'a,a' }, { allow_cloud: 'perhaps' }] as Record<string, string>[]) {
      const res = await transcribe(alice.token, 'a.wav', tone, fields);
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.equal(res.body.error, 'validation_failed', JSON.stringify(fields));
    }
    assert.equal(cloud.requests.length, 0, 'nothing refused reached a model');
  });

  test('500 no_model_route without an enabled audio route, or with only an unavailable local one', async () => {
    await clearRoutes();
    await addRoute({ name: 'Chat only', kind: 'chat', provider: 'openai-compatible', base_url: cloud.baseUrl, model: 'chat' });
    await addCloudRoute({ enabled: false });
    const none = await transcribe(alice.token, 'a.wav', tone);
    assert.equal(none.status, 500);
    assert.equal(none.body.error, 'no_model_route');
    assert.equal(none.body.data, null);

    await addMissingLocalRoute();
    const unavailable = await transcribe(alice.token, 'a.wav', tone);
    assert.equal(unavailable.status, 500);
    assert.equal(unavailable.body.error, 'no_model_route');
    assert.equal(unavailable.body.details.attempts.length, 1);
    assert.match(unavailable.body.details.attempts[0].error, /model file .*no-such-ggml-base\.bin not found/);
    assert.equal(cloud.requests.length, 0);
  });

  test('a cloud route receives the file as multipart and its verbose JSON comes back', { skip: ESPEAK_MISSING && 'espeak-ng is not installed: cannot make the speech fixture' }, async () => {
    await clearRoutes();
    const route = await addCloudRoute();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-audio-'));
    const wavPath = path.join(dir, 'hello.wav');
    execFileSync('espeak-ng', ['-w', wavPath, 'hello trainbench']);
    const speech = new Uint8Array(await fs.readFile(wavPath));
    await fs.rm(dir, { recursive: true, force: true });
    assert.equal(Buffer.from(speech.subarray(0, 4)).toString('ascii'), 'RIFF');
    cloud.behave({ transcription: { text: ' hello trainbench ', language: 'english', segments: [{ start: 0, end: 1.2, text: ' hello trainbench' }] } });

    const res = await transcribe(alice.token, 'hello.wav', speech, { language: 'en' });
    assert.equal(res.status, 200, res.text);
    const sent = cloud.requests.at(-1)!;
    assert.equal(sent.path, '/v1/audio/transcriptions');
    assert.equal(sent.headers.authorization, `Bearer ${CLOUD_KEY}`);
    assert.equal(sent.body.model, 'whisper-1');
    assert.equal(sent.body.response_format, 'verbose_json');
    assert.equal(sent.body.language, 'en');
    assert.equal(sent.file?.name, 'hello.wav');
    assert.equal(sent.file?.type, 'audio/wav');
    assert.ok(sent.file?.bytes.equals(speech), 'the server forwards the file byte for byte');

    const data = res.body.data;
    assert.ok(Number.isInteger(data.id));
    assert.equal(data.filename, 'hello.wav');
    assert.equal(data.file_size, speech.length);
    assert.equal(data.text, 'hello trainbench');
    assert.equal(data.language, 'english');
    assert.deepEqual(data.segments, [{ start: 0, end: 1.2, text: 'hello trainbench' }]);
    assert.equal(data.has_speakers, false);
    assert.equal(data.speakers_requested, false);
    assert.deepEqual(data.route, { id: route.id, name: 'Cloud STT', provider: 'openai-compatible', is_local: false });
    assert.equal(data.left_local, false);
    assert.equal(data.capability_degraded, false);
    assert.equal(data.capability_zh, '');
    assert.deepEqual(data.attempts, [{ route: data.route, ok: true }]);
    assert.ok(!res.text.includes(CLOUD_KEY));

    const [call] = await lastCalls(1);
    assert.equal(call.purpose, 'audio.transcribe');
    assert.equal(call.status, 'ok');
    assert.equal(call.route_id, route.id);
    assert.equal(call.user_id, alice.id);
    assert.equal(call.reply_chars, 'hello trainbench'.length);
  });

  test('a local-whisper route without its model is reported, and the audio falls back to the cloud when the system allows it', async () => {
    await clearRoutes();
    const local = await addMissingLocalRoute();
    const remote = await addCloudRoute({ priority: 1 });
    cloud.behave({});
    await setConfig({ audio_cloud_fallback: true });

    // A WAV named .flac: what is sent is named and typed after the content.
    const res = await transcribe(alice.token, 'Meeting Notes.flac', tone);
    assert.equal(res.status, 200, res.text);
    const data = res.body.data;
    assert.deepEqual(cloud.requests.at(-1)!.file?.bytes, Buffer.from(tone));
    assert.equal(cloud.requests.at(-1)!.file?.type, 'audio/wav');
    assert.equal(cloud.requests.at(-1)!.file?.name, 'Meeting Notes.wav');
    assert.equal(data.attempts.length, 2);
    assert.deepEqual(data.attempts[0].route, { id: local.id, name: 'Desk whisper', provider: 'local-whisper', is_local: true });
    assert.equal(data.attempts[0].ok, false);
    assert.match(data.attempts[0].error, /unavailable: .*model file .* not found/);
    assert.deepEqual(data.attempts[1], { route: { id: remote.id, name: 'Cloud STT', provider: 'openai-compatible', is_local: false }, ok: true });
    assert.equal(data.route.id, remote.id);
    assert.equal(data.left_local, true);
    assert.equal(data.capability_degraded, true);
    assert.match(data.capability_zh, /云端/);

    const [ok, failed] = await lastCalls(2);
    assert.deepEqual([ok.status, ok.attempt, ok.route_id], ['ok', 2, remote.id]);
    assert.deepEqual([failed.status, failed.attempt, failed.route_id, failed.purpose], ['failed', 1, local.id, 'audio.transcribe']);
    assert.match(failed.error, /not found/);

    cloud.behave({ failStatus: 503 });
    const broken = await transcribe(alice.token, 'call.mp3', tone);
    assert.equal(broken.status, 500);
    assert.equal(broken.body.error, 'model_route_failed');
    assert.match(broken.body.details.attempts[1].error, /HTTP 503: fake failure/);
    cloud.behave({});
    await setConfig({ audio_cloud_fallback: false });
  });

  test('a local-whisper route runs whisper.cpp on this machine and nothing leaves it', { skip: WHISPER_CPP_MISSING }, async () => {
    await clearRoutes();
    const model = path.join(ts.dataDir, 'ggml-tiny-test.bin');
    await writeTinyWhisperModel(model);
    const local = await addRoute({ name: 'Desk whisper', provider: 'local-whisper', model, priority: 500 });
    await addCloudRoute({ priority: 1 });
    const cloudRequests = cloud.requests.length;
    const cwd = process.cwd();

    const res = await transcribe(alice.token, 'dictation.wav', toneWav(2), { language: 'en' });
    assert.equal(res.status, 200, res.text);
    const data = res.body.data;
    assert.deepEqual(data.route, { id: local.id, name: 'Desk whisper', provider: 'local-whisper', is_local: true });
    assert.deepEqual([data.left_local, data.attempts.length, data.attempts[0].ok], [false, 1, true]);
    // The generated model always answers one made-up word from 0 to 1 s (tests/support/tiny-whisper-model.ts).
    assert.match(data.text, /^w\d+$/);
    assert.deepEqual(data.segments, [{ start: 0, end: 1, text: data.text }]);
    assert.equal(cloud.requests.length, cloudRequests, 'nothing was sent to the cloud route');
    assert.equal(process.cwd(), cwd, 'the server keeps its working directory');
    const [call] = await lastCalls(1);
    assert.deepEqual([call.status, call.route_id, call.purpose, call.reply_chars], ['ok', local.id, 'audio.transcribe', data.text.length]);

    const stored = await ts.api.get(`/api/audio/transcriptions/${data.id}`, { token: alice.token });
    assert.equal(stored.body.data.text, data.text);

    const unreadable = await transcribe(alice.token, 'not-audio.wav', new Uint8Array(Buffer.from('RIFF but not audio at all')));
    assert.equal(unreadable.status, 400, unreadable.text);
    assert.equal(unreadable.body.error, 'invalid_audio', 'a file that starts like a WAV but is not one is broken audio');
    assert.equal(cloud.requests.length, cloudRequests, 'and it went nowhere');
  });

  test('speaker separation: labels pass through, or the answer says it degraded', async () => {
    await clearRoutes();
    await addCloudRoute();
    cloud.behave({ transcription: { text: 'hi there hello', segments: [{ start: 0, end: 1, text: 'hi there', speaker: 'A' }, { start: 1, end: 2, text: 'hello', speaker: 'B' }] } });
    const labelled = await transcribe(alice.token, 'talk.m4a', tone, { diarize: 'true' });
    assert.equal(labelled.status, 200, labelled.text);
    assert.equal(labelled.body.data.has_speakers, true);
    assert.equal(labelled.body.data.speakers_requested, true);
    assert.deepEqual(labelled.body.data.segments.map((s: { speaker: string }) => s.speaker), ['A', 'B']);
    assert.equal(labelled.body.data.capability_degraded, false);
    assert.equal(labelled.body.data.capability_zh, '');

    cloud.behave({ transcription: { text: 'one voice', segments: [{ start: 0, end: 1, text: 'one voice' }] } });
    const unlabelled = await transcribe(alice.token, 'talk.ogg', tone, { speakers: '1', language: 'zh-CN' });
    assert.equal(unlabelled.status, 200, unlabelled.text);
    assert.equal(cloud.requests.at(-1)!.body.language, 'zh', 'the language alone is sent, without its region');
    const data = unlabelled.body.data;
    assert.equal(data.has_speakers, false);
    assert.equal(data.left_local, false);
    assert.equal(data.capability_degraded, true);
    assert.match(data.capability_zh, /说话人/);
    assert.equal(data.language, 'english', 'the language the route reported wins over the one asked for');
    assert.ok(!('speaker' in data.segments[0]));
    cloud.behave({});
  });

  test('a failed job keeps its recording and is retried as a new job from it, which replaces it; only the owner may, and only once', async () => {
    const carol = await ts.user();
    const failedJobs = async () => (await ts.api.get('/api/audio/jobs?state=failed', { token: carol.token })).body.data.items as { id: number; error: { code: string } }[];
    await clearRoutes();
    const failed = await transcribe(carol.token, 'retry me.wav', tone, { language: 'en' });
    assert.equal(failed.body.error, 'no_model_route');
    const [job] = await failedJobs();
    assert.ok(job, 'the failed job stays listed');
    assert.equal(job.error.code, 'no_model_route');

    assert.equal((await ts.api.post(`/api/audio/jobs/${job.id}/retry`, { token: bob.token })).status, 404, "another user's job");
    assert.equal((await ts.api.post(`/api/audio/jobs/${job.id}/retry`)).status, 401);

    await addCloudRoute();
    cloud.behave({ transcription: { text: 'retried and done' } });
    const retried = await ts.api.post(`/api/audio/jobs/${job.id}/retry`, { token: carol.token });
    assert.equal(retried.status, 202, retried.text);
    const next = retried.body.data as { id: number; filename: string; language: string | null };
    assert.notEqual(next.id, job.id);
    assert.equal(retried.headers.get('location'), `/api/audio/jobs/${next.id}`);
    assert.deepEqual([next.filename, next.language], ['retry me.wav', 'en']);
    let done: { state: string; transcription_id: number | null } | undefined;
    for (let i = 0; i < 200 && done?.state !== 'done'; i++) {
      done = (await ts.api.get(`/api/audio/jobs/${next.id}`, { token: carol.token })).body.data;
      if (done?.state !== 'done') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(done?.state, 'done');
    const sent = cloud.requests.at(-1)!;
    assert.ok(sent.file?.bytes.equals(tone), 'the same recording, byte for byte');
    assert.equal(sent.body.language, 'en');
    const transcription = (await ts.api.get(`/api/audio/transcriptions/${done!.transcription_id}`, { token: carol.token })).body.data;
    assert.equal(transcription.text, 'retried and done');

    assert.deepEqual(await failedJobs(), [], 'the retry replaced the failed job');
    assert.equal((await ts.api.get(`/api/audio/jobs/${job.id}`, { token: carol.token })).status, 404);
    assert.equal((await ts.api.post(`/api/audio/jobs/${job.id}/retry`, { token: carol.token })).status, 404, 'retried once');
    const notFailed = await ts.api.post(`/api/audio/jobs/${next.id}/retry`, { token: carol.token });
    assert.deepEqual([notFailed.status, notFailed.body.error], [409, 'audio.job_not_failed']);
    const kept = await fs.readdir(path.join(ts.dataDir, 'audio', 'failed-jobs')).catch(() => [] as string[]);
    assert.ok(!kept.includes(String(job.id)), 'the kept recording is gone');

    // A failure whose recording is not there (the server stopped meanwhile) says to send the file again.
    await clearRoutes();
    await transcribe(carol.token, 'lost.wav', tone);
    const [lost] = await failedJobs();
    await fs.rm(path.join(ts.dataDir, 'audio', 'failed-jobs', String(lost!.id)));
    const unavailable = await ts.api.post(`/api/audio/jobs/${lost!.id}/retry`, { token: carol.token });
    assert.deepEqual([unavailable.status, unavailable.body.error], [409, 'audio.retry_unavailable']);
    cloud.behave({});
  });

  test('stored transcriptions are read back by their owner only', async () => {
    await clearRoutes();
    await addCloudRoute();
    cloud.behave({ transcription: { text: 'bob speaking' } });
    const created = await transcribe(bob.token, 'bob.wav', tone);
    assert.equal(created.status, 200, created.text);
    const id = created.body.data.id as number;

    const read = await ts.api.get(`/api/audio/transcriptions/${id}`, { token: bob.token });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data, created.body.data);

    const list = await ts.api.get('/api/audio/transcriptions', { token: bob.token });
    assert.equal(list.status, 200);
    assert.equal(list.body.data.total, 1);
    assert.equal(list.body.data.items[0].id, id);
    assert.equal(list.body.data.items[0].text, 'bob speaking');
    assert.ok(!('segments' in list.body.data.items[0]));

    const mine = await ts.api.get('/api/audio/transcriptions?size=2', { token: alice.token });
    assert.equal(mine.body.data.size, 2);
    assert.ok(mine.body.data.items.length <= 2);
    assert.ok(mine.body.data.items.every((t: { id: number }) => t.id !== id));
    assert.ok(mine.body.data.items[0].id > mine.body.data.items[1].id, 'newest first');

    const foreign = await ts.api.get(`/api/audio/transcriptions/${id}`, { token: alice.token });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error, 'not_found');
    assert.equal((await ts.api.get('/api/audio/transcriptions/999999', { token: bob.token })).status, 404);
    assert.equal((await ts.api.get('/api/audio/transcriptions/abc', { token: bob.token })).status, 400);
    assert.equal((await ts.api.get('/api/audio/transcriptions?size=0', { token: bob.token })).status, 400);
    cloud.behave({});
  });

  test('a workbench step that needs speakers runs on a labelled transcript and refuses one without labels', async () => {
    await clearRoutes();
    await addCloudRoute();
    cloud.behave({ transcription: { text: 'rates please fixed for a year', segments: [{ start: 0, end: 1, text: 'rates please', speaker: 'Customer' }, { start: 1, end: 2, text: 'fixed for a year', speaker: 'Adviser' }] } });
    const labelled = (await transcribe(alice.token, 'call.wav', tone, { speakers: 'true' })).body.data;
    cloud.behave({ transcription: { text: 'rates please fixed for a year', segments: [{ start: 0, end: 2, text: 'rates please fixed for a year' }] } });
    const unlabelled = (await transcribe(alice.token, 'call2.wav', tone, { speakers: 'true' })).body.data;
    assert.deepEqual([labelled.has_speakers, unlabelled.has_speakers], [true, false]);
    const chatModel = await useFakeModel(ts);
    try {
      const tasksBefore = (await ts.api.get('/api/worker/my-tasks', { token: alice.token })).body.data.length;
      const ok = await chatOk(ts, alice.token, { message: 'Review this call.', skill_key: 'call_review', documents: [{ transcription_id: labelled.id }] });
      const prompt = chatModel.requests.at(-1)!.body.messages!.at(-1)!.content;
      assert.match(prompt, /--- Document 1: call\.wav ---\nCustomer: rates please\nAdviser: fixed for a year\n/, 'the transcript goes in with its speaker labels');
      assert.ok(ok.taskId > 0);

      const requests = chatModel.requests.length;
      for (const documents of [[{ transcription_id: unlabelled.id }], [{ transcription_id: labelled.id }, { name: 'notes.txt', content: 'typed notes' }]]) {
        const refused = await workerChat(ts, alice.token, { message: 'Review this call.', skill_key: 'call_review', documents });
        assert.equal(refused.status, 400, JSON.stringify(refused.envelope));
        assert.equal(refused.envelope.error, 'workbench.speakers_required');
        assert.match(refused.envelope.message, /needs transcripts with speaker labels/);
      }
      assert.equal(chatModel.requests.length, requests, 'nothing went to the model');
      assert.equal((await ts.api.get('/api/worker/my-tasks', { token: alice.token })).body.data.length, tasksBefore + 1, 'the refusals created no task');

      await chatOk(ts, alice.token, { message: 'Summarise this call.', skill_key: 'document_summary', documents: [{ transcription_id: unlabelled.id }] });
      assert.match(chatModel.requests.at(-1)!.body.messages!.at(-1)!.content, /rates please fixed for a year/, 'a step that does not need speakers takes the plain transcript');
      const foreign = await workerChat(ts, bob.token, { message: 'Summarise.', skill_key: 'document_summary', documents: [{ transcription_id: labelled.id }] });
      assert.equal(foreign.status, 404, 'another user\'s transcription is not found');
    } finally {
      await chatModel.close();
      cloud.behave({});
    }
  });
});
