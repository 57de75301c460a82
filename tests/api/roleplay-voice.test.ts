// Spoken role-play turns over real HTTP (docs/api/roleplay.md): multipart `audio` transcribed on the audio routes
// (here a fake OpenAI-compatible transcription server; the local whisper route is tried first when there is one),
// the transcript taken as the rep's words with its flags, also streamed; refusals before anything is transcribed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { writeTinyWhisperModel } from '../support/tiny-whisper-model.js';
import { toneWav } from './audio-fixtures.js';
import { WHISPER_CPP_MISSING, skipUnlessCI } from '../support/tools.js';
import { REP_LINES, SCENARIO, createScenario } from './roleplay-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const spoken = (text: string) => ({ transcription: { text, language: 'chinese', segments: [{ start: 0, end: 1, text }] } });

function audioForm(data: Uint8Array, name = 'turn.wav', fields: Record<string, string> = {}): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  body.append('audio', new Blob([data as Uint8Array<ArrayBuffer>]), name);
  return body;
}

describe('role-play voice turns: multipart audio', () => {
  let ts: TestServer;
  let stt: FakeModel;
  let rep: { id: number; token: string };
  let other: { id: number; token: string };
  let scenarioId: number;
  const tone = toneWav(0.5);

  const speak = (token: string, id: number, form: FormData, headers?: Record<string, string>) => ts.api.post(`/api/roleplay/sessions/${id}/turns`, { token, form, headers });
  const start = async () => {
    const res = await ts.api.post('/api/roleplay/sessions', { token: rep.token, body: { scenario_id: scenarioId } });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id as number;
  };
  const routes = async () => (await ts.api.get('/api/ai/routes', { token: ts.adminToken })).body.data as Json[];
  const addAudioRoute = async (body: Record<string, unknown>) => {
    const res = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { kind: 'audio', ...body } });
    assert.equal(res.status, 201, res.text);
    return res.body.data as { id: number };
  };

  before(async () => {
    [ts, stt] = await Promise.all([startTestServer(), startFakeModel()]);
    rep = await ts.user('employee');
    other = await ts.user('employee');
    scenarioId = await createScenario(ts);
    await addAudioRoute({ name: 'Cloud STT', provider: 'openai-compatible', base_url: stt.baseUrl, api_key: 'sk-test', model: 'whisper-1', is_local: false });
  });
  after(async () => {
    await stt?.close();
    await ts?.close();
  });

  test('the transcript is the rep turn: flagged, answered by the scripted customer, kept in the session', async () => {
    const id = await start();
    stt.behave(spoken(REP_LINES[0]!));
    const first = await speak(rep.token, id, audioForm(tone, 'turn-1.wav', { language: 'zh' }));
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.data, {
      rep_turn: { index: 1, speaker: 'rep', text: REP_LINES[0], flags: [] },
      customer_turn: { index: 2, speaker: 'customer', text: SCENARIO.objections[0] },
    });
    const sent = stt.requests.at(-1)!;
    assert.equal(sent.path, '/v1/audio/transcriptions');
    assert.deepEqual([sent.file?.name, sent.file?.bytes.length, sent.body.language], ['turn-1.wav', tone.length, 'zh']);

    stt.behave(spoken(REP_LINES[1]!));
    const second = await speak(rep.token, id, audioForm(tone));
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.body.data.rep_turn, { index: 3, speaker: 'rep', text: REP_LINES[1], flags: [{ rule_key: 'no_guarantee', quote: REP_LINES[1] }] });

    const session = (await ts.api.get(`/api/roleplay/sessions/${id}`, { token: rep.token })).body.data;
    assert.deepEqual(session.turns.map((t: Json) => t.text), [SCENARIO.opening, REP_LINES[0], SCENARIO.objections[0], REP_LINES[1], SCENARIO.objections[1]]);
    // A practice turn is no call: nothing joins the rep's transcriptions.
    const transcriptions = await ts.api.get('/api/audio/transcriptions', { token: rep.token });
    assert.equal(transcriptions.status, 200, transcriptions.text);
    assert.equal(transcriptions.body.data.items.length, 0);
  });

  test('with Accept: text/event-stream a spoken turn streams like a typed one', async () => {
    const id = await start();
    stt.behave(spoken(REP_LINES[1]!));
    const res = await speak(rep.token, id, audioForm(tone), { accept: 'text/event-stream' });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = res.text.trim().split('\n\n').map((block) => JSON.parse(block.slice('data: '.length)));
    assert.deepEqual(events, [
      { type: 'rep_turn', turn: { index: 1, speaker: 'rep', text: REP_LINES[1], flags: [{ rule_key: 'no_guarantee', quote: REP_LINES[1] }] } },
      { type: 'text', content: SCENARIO.objections[0] },
      { type: 'done', customer_turn: { index: 2, speaker: 'customer', text: SCENARIO.objections[0] } },
    ]);
  });

  test('bad audio and silence are 400s that store nothing', async () => {
    const id = await start();
    const textOnly = new FormData();
    textOnly.append('text', '你好');
    const noFile = await speak(rep.token, id, textOnly);
    assert.deepEqual([noFile.status, noFile.body.error], [400, 'validation_failed']);
    const notAudio = await speak(rep.token, id, audioForm(new Uint8Array(Buffer.from('just some text, not audio')), 'note.txt'));
    assert.deepEqual([notAudio.status, notAudio.body.error], [400, 'unsupported_audio'], notAudio.text);
    const empty = await speak(rep.token, id, audioForm(new Uint8Array(0)));
    assert.deepEqual([empty.status, empty.body.error], [400, 'invalid_audio'], empty.text);
    stt.behave(spoken('  '));
    const silence = await speak(rep.token, id, audioForm(tone));
    assert.deepEqual([silence.status, silence.body.error], [400, 'validation_failed'], silence.text);
    assert.match(silence.body.message, /No speech/);
    const session = (await ts.api.get(`/api/roleplay/sessions/${id}`, { token: rep.token })).body.data;
    assert.equal(session.turns.length, 1, 'only the opening');
  });

  test("someone else's or a finished session is refused before the audio is sent anywhere", async () => {
    const id = await start();
    stt.behave(spoken(REP_LINES[0]!));
    const asked = stt.requests.length;
    const stranger = await speak(other.token, id, audioForm(tone));
    assert.deepEqual([stranger.status, stranger.body.error], [404, 'not_found']);
    assert.equal((await ts.api.post(`/api/roleplay/sessions/${id}/finish`, { token: rep.token })).status, 200);
    const late = await speak(rep.token, id, audioForm(tone));
    assert.deepEqual([late.status, late.body.error], [409, 'roleplay.session_finished']);
    assert.equal(stt.requests.length, asked, 'no transcription was asked for');
  });

  test('the local whisper route comes first; with no audio route at all the turn is 500 no_model_route', { skip: skipUnlessCI(WHISPER_CPP_MISSING) }, async () => {
    const model = path.join(ts.dataDir, 'ggml-tiny-roleplay.bin');
    await writeTinyWhisperModel(model);
    await addAudioRoute({ name: 'Desk whisper', provider: 'local-whisper', model, priority: 500 });
    await ts.api.put('/api/system/config', { token: ts.adminToken, body: { configs: { audio_local_quality: 'fast' } } });
    const id = await start();
    const asked = stt.requests.length;
    const local = await speak(rep.token, id, audioForm(toneWav(2)));
    assert.equal(local.status, 200, local.text);
    // The generated model answers one made-up word (tests/support/tiny-whisper-model.ts).
    assert.match(local.body.data.rep_turn.text, /^w\d+$/);
    assert.equal(stt.requests.length, asked, 'the audio stayed on this machine');

    for (const route of await routes()) await ts.api.delete(`/api/ai/routes/${route.id}`, { token: ts.adminToken });
    const none = await speak(rep.token, id, audioForm(tone));
    assert.deepEqual([none.status, none.body.error], [500, 'no_model_route'], none.text);
  });
});
