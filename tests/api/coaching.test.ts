// From a customer call to coaching, over real HTTP: a stereo call spoken by two espeak-ng voices, transcribed through
// the fake OpenAI-compatible server (so the text is the one spoken), analysed into a report whose findings cite the
// approved knowledge, and whose practice items reach the coach, the rep's review list and the question bank.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, usingPostgres, type TestServer } from '../support/server.js';
import type { FakeModel } from '../support/fake-model.js';
import { writeTinyWhisperModel } from '../support/tiny-whisper-model.js';
import { form } from './media-fixtures.js';
import { LOCAL_PATH_MISSING, callFixtures, stereoCall, type TimedTurn } from './audio-fixtures.js';
import { sseEvents, useFakeModel, workerChat } from './workbench.fixtures.js';
import { TURNS, approveHandbook, chunkContaining, modelReply, type Chunk } from './coaching-fixtures.js';
import { FIXTURE_TOOLS_SKIP } from '../support/tools.js';

const FIXTURE_TOOLS_MISSING = FIXTURE_TOOLS_SKIP;


// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('coaching from customer calls /api/coaching', { skip: FIXTURE_TOOLS_MISSING }, () => {
  let ts: TestServer;
  let fake: FakeModel;
  let rep: { id: number; token: string };
  let other: { id: number; token: string };
  let call: { file: string; turns: TimedTurn[] };
  let chunks: { commission: Chunk; comparison: Chunk; risk: Chunk; sifBlock: Chunk; growthBlock: Chunk };
  let productId: number;
  let transcriptionId: number;
  let report: Json;

  const admin = () => ts.adminToken;
  const segments = () => call.turns.map((t) => ({ start: t.start, end: t.end, text: t.text, speaker: t.side }));
  const behave = () => fake.behave({ transcription: { text: TURNS.map((t) => t.text).join(' '), language: 'en', segments: segments() }, chunks: [JSON.stringify(modelReply(chunks.risk.id))] });

  const transcribe = async (token: string, file: string, fields: Record<string, string> = { speakers: 'true', channels: 'rep,customer' }) => {
    const res = await ts.api.post('/api/audio/transcribe', { token, form: form(fields, { name: path.basename(file), data: new Uint8Array(await fs.readFile(file)) }) });
    assert.equal(res.status, 200, res.text);
    return res.body.data as Json;
  };
  const analyse = (token: string, body: Record<string, unknown>) => ts.api.post('/api/coaching/calls', { token, body });
  const setConfig = async (configs: Record<string, unknown>) => assert.equal((await ts.api.put('/api/system/config', { token: admin(), body: { configs } })).status, 200);
  const fetchBytes = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(ts.url + url, { headers });
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
  };

  before(async () => {
    ts = await startTestServer();
    [fake, call] = await Promise.all([useFakeModel(ts), stereoCall(TURNS.map((t) => ({ ...t })))]);
    rep = await ts.user();
    other = await ts.user();

    await approveHandbook(ts);
    chunks = {
      commission: await chunkContaining(ts, 'advisers commission', 'pays advisers a commission of 2.5 percent'),
      comparison: await chunkContaining(ts, 'steadier', 'Growth Fund pays a commission of 3.5 percent'),
      risk: await chunkContaining(ts, 'guaranteed', 'returns are not guaranteed'),
      sifBlock: await chunkContaining(ts, 'SIF-1', 'code: SIF-1'),
      growthBlock: await chunkContaining(ts, 'GRW-2', 'code: GRW-2'),
    };
    productId = (await ts.api.get('/api/products?q=SIF-1', { token: admin() })).body.data[0].id;

    // No local route: the cloud route is how this install transcribes, and it answers the words spoken.
    const route = await ts.api.post('/api/ai/routes', { token: admin(), body: { kind: 'audio', name: 'Cloud STT', provider: 'openai-compatible', base_url: fake.baseUrl, model: 'whisper-1', is_local: false } });
    assert.equal(route.status, 201, route.text);
    behave();
    transcriptionId = (await transcribe(rep.token, call.file)).id;
  });
  after(async () => {
    await fake?.close();
    await ts?.close();
  });

  test('401 without a token, 400 for bad bodies, 404 for a transcription that is not the caller’s', async () => {
    assert.equal((await ts.api.post('/api/coaching/calls', { body: { transcription_id: transcriptionId, rep_speaker: 'rep' } })).status, 401);
    assert.equal((await ts.api.get('/api/coaching/reports')).status, 401);
    for (const body of [{}, { rep_speaker: 'rep' }, { transcription_id: transcriptionId }, { transcription_id: 'x', rep_speaker: 'rep' }, { transcription_id: transcriptionId, task_id: 1, run_id: 1, rep_speaker: 'rep' }, { task_id: 1, rep_speaker: 'rep' }]) {
      const res = await analyse(rep.token, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'validation_failed', JSON.stringify(body));
    }
    const foreign = await analyse(other.token, { transcription_id: transcriptionId, rep_speaker: 'rep' });
    assert.equal(foreign.status, 404);
    const unknownSpeaker = await analyse(rep.token, { transcription_id: transcriptionId, rep_speaker: 'agent' });
    assert.equal(unknownSpeaker.status, 400);
    assert.equal(unknownSpeaker.body.error, 'coaching.unknown_speaker');
    assert.deepEqual(unknownSpeaker.body.details.speakers, ['rep', 'customer']);
    const unknownProduct = await analyse(rep.token, { transcription_id: transcriptionId, rep_speaker: 'rep', product_id: 999_999 });
    assert.equal(unknownProduct.status, 400);
    assert.equal(unknownProduct.body.error, 'validation_failed');
    assert.equal((await ts.api.get('/api/coaching/reports/abc', { token: rep.token })).status, 400);
    assert.equal((await ts.api.get('/api/coaching/reports/999999', { token: rep.token })).status, 404);
  });

  test('the report flags the misstated commission rate and risk level, each citing the right chunk and product field', async () => {
    const modelCalls = fake.requests.length;
    const res = await analyse(rep.token, { transcription_id: transcriptionId, rep_speaker: 'rep' });
    assert.equal(res.status, 201, res.text);
    report = res.body.data;
    assert.equal(res.headers.get('location'), `/api/coaching/reports/${report.id}`);

    // What was analysed, and the call's figures exactly as the audio domain computes them.
    assert.deepEqual(report.source, { kind: 'transcription', transcription_id: transcriptionId, task_id: null, run_id: null });
    assert.equal(report.user.id, rep.id);
    assert.equal(report.rep_speaker, 'rep');
    assert.deepEqual(report.customer_speakers, ['customer']);
    assert.deepEqual(report.product, { id: productId, code: 'SIF-1', name: 'Steady Income Fund', detected: true });
    const figures = await ts.api.get(`/api/audio/transcriptions/${transcriptionId}/figures`, { token: rep.token });
    assert.deepEqual(report.figures, figures.body.data);
    assert.equal(report.rep_figures.speaker, 'rep');

    // The deterministic checks: what the rep said in segment 2 against the product and the chunks about it.
    const commission = report.facts.find((f: Json) => f.field === 'commission_rate');
    assert.ok(commission, JSON.stringify(report.facts));
    assert.deepEqual([commission.method, commission.verdict, commission.stated, commission.correct], ['deterministic', 'misstated', '3.5 percent', '2.5%']);
    assert.deepEqual(commission.segments.map((s: Json) => [s.index, s.speaker, s.quote, s.start, s.end]), [[2, 'rep', TURNS[2].text, call.turns[2]!.start, call.turns[2]!.end]]);
    assert.equal(commission.claim, 'Our commission is only 3.5 percent.');
    const cited = commission.citations.filter((c: Json) => c.type === 'chunk').map((c: Json) => c.chunk_id).sort();
    // The right chunks: the commission section and the product's own block; never the chunk where 3.5 is the Growth Fund's.
    assert.deepEqual(cited, [chunks.commission.id, chunks.sifBlock.id].sort());
    const commissionChunk = commission.citations.find((c: Json) => c.chunk_id === chunks.commission.id);
    assert.equal(commissionChunk.text, chunks.commission.content);
    assert.equal(commissionChunk.source.type, 'knowledge');
    assert.equal(commissionChunk.source.title, 'Steady Income Fund handbook');
    assert.deepEqual(commission.citations.find((c: Json) => c.type === 'product_field'), {
      type: 'product_field',
      product_id: productId,
      product_name: 'Steady Income Fund',
      field: 'commission_rate',
      label: '佣金比例',
      value: '2.5%',
    });
    const risk = report.facts.find((f: Json) => f.field === 'risk_level');
    assert.deepEqual([risk.verdict, risk.stated, risk.correct], ['misstated', 'R1', 'R3']);
    assert.ok(risk.citations.some((c: Json) => c.chunk_id === chunks.risk.id));
    assert.ok(!risk.citations.some((c: Json) => c.chunk_id === chunks.growthBlock.id), 'the Growth Fund block is not about this product');

    // The model's part: its request carried the transcript and the offered chunks; what it cited nothing for was left out.
    assert.equal(fake.requests.length, modelCalls + 1);
    const prompt = fake.requests.at(-1)!.body.messages!.map((m) => m.content).join('\n');
    assert.match(prompt, /\[3\] \d+:\d\d–\d+:\d\d customer \(CUSTOMER\): That commission sounds too high for me\./);
    assert.match(prompt, new RegExp(`\\[chunk ${chunks.risk.id}\\]`));
    assert.equal(report.model.status, 'complete');
    assert.equal(report.model.dropped_items, 3);
    assert.deepEqual(report.needs_model, []);
    const guaranteed = report.facts.find((f: Json) => f.method === 'model');
    assert.deepEqual([guaranteed.verdict, guaranteed.segments[0].index, guaranteed.citations[0].chunk_id], ['misstated', 4, chunks.risk.id]);
    assert.equal(report.facts.length, 3);
    assert.equal(report.misstated_count, 3);

    assert.deepEqual(
      report.objections.map((o: Json) => [o.id, o.handling, o.customer.map((s: Json) => s.quote), o.rep_response.map((s: Json) => s.index)]),
      [
        ['objection-1', 'partly_answered', [TURNS[1].text], [2]],
        ['objection-2', 'not_answered', [TURNS[3].text], []],
      ],
    );
    assert.equal(report.objections[0].citations[0].chunk_id, chunks.risk.id);

    // Three things to practise, the misstated facts first, each resting on segments.
    assert.equal(report.practice.length, 3);
    assert.deepEqual(report.practice.map((p: Json) => p.kind), ['fact', 'fact', 'fact']);
    for (const item of report.practice) assert.ok(item.segments.length && item.citations.length && item.finding_ids.length, JSON.stringify(item));

    // Every quote links to the call's audio at its time; the recording is the rep's to play.
    assert.equal(report.recording.available, true);
    assert.match(report.recording.url, new RegExp(`^/api/coaching/reports/${report.id}/recording\\?token=`));
    assert.equal(commission.segments[0].audio_url, `${report.recording.url}#t=${call.turns[2]!.start},${call.turns[2]!.end}`);

    // The scenario launches the coach with the customer's real objections.
    assert.deepEqual(report.scenario.objections.map((o: Json) => o.quote), [TURNS[1].text, TURNS[3].text]);
    assert.deepEqual(report.scenario.launch.message.context, { coaching_report_id: report.id, product_id: productId, page: 'coaching' });
    assert.deepEqual(report.scenario.launch.quick_action, { action_id: 'scenario', params: { coaching_report_id: report.id } });

    // Practice items: the rep's review list and the draft questions, all read back with the report.
    assert.deepEqual(report.review_items.map((r: Json) => [r.finding_id, r.mastered, r.question_ids]), report.facts.map((f: Json) => [f.id, false, []]));
    const single = report.question_drafts.find((d: Json) => d.type === 'single' && d.finding_ids[0] === commission.id);
    assert.deepEqual(single.options.map((o: Json) => o.text), ['1.5%', '2.5%', '3.5%', '4.5%']);
    assert.deepEqual(single.answer, ['B']);
    assert.match(single.explanation, new RegExp(`知识片段 #${chunks.commission.id}`));
    assert.equal(single.status, 'pending');
    assert.equal(single.domain, 'wealth');
    assert.ok(report.question_drafts.some((d: Json) => d.type === 'true_false' && d.finding_ids[0] === guaranteed.id));
    const multiple = report.question_drafts.find((d: Json) => d.type === 'multiple');
    assert.deepEqual(multiple.finding_ids.sort(), [commission.id, risk.id].sort());
    assert.equal(report.pending_drafts, report.question_drafts.length);

    // Read back by id, and listed for the rep.
    const again = await ts.api.get(`/api/coaching/reports/${report.id}`, { token: rep.token });
    assert.deepEqual({ ...again.body.data, recording: null }, withLinks({ ...report, recording: null }, again.body.data.recording.url));
    const list = await ts.api.get('/api/coaching/reports', { token: rep.token });
    assert.deepEqual(list.body.data.items.map((r: Json) => [r.id, r.misstated_count, r.objection_count, r.model_status]), [[report.id, 3, 2, 'complete']]);
  });

  /** The report with every audio link re-signed as `url` (each read signs afresh). */
  const withLinks = (value: Json, url: string): Json => {
    if (Array.isArray(value)) return value.map((v) => withLinks(v, url));
    if (!value || typeof value !== 'object') return value;
    const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withLinks(v, url)]));
    if (typeof out.audio_url === 'string') out.audio_url = `${url}${out.audio_url.slice(out.audio_url.indexOf('#'))}`;
    return out;
  };

  test('an admin approves a draft into the question bank and rejects another with its reason kept', async () => {
    assert.equal((await ts.api.get('/api/coaching/question-drafts', { token: rep.token })).status, 403);
    const notice = (await ts.api.get('/api/notifications', { token: admin() })).body.data.find((n: Json) => n.link === '/coaching/question-drafts');
    assert.ok(notice, 'admins are told drafts await review');

    const queue = await ts.api.get('/api/coaching/question-drafts', { token: admin() });
    assert.equal(queue.status, 200);
    assert.deepEqual(queue.body.data.items.map((d: Json) => d.id), report.question_drafts.map((d: Json) => d.id));
    const single = queue.body.data.items.find((d: Json) => d.type === 'single');
    assert.equal(single.user.id, rep.id);
    // The admin may listen only when the system allows it: the quotes carry no audio link meanwhile.
    assert.equal(single.segments[0].audio_url, null);

    const noReason = await ts.api.post(`/api/coaching/question-drafts/${single.id}/audit`, { token: admin(), body: { action: 'reject' } });
    assert.equal(noReason.status, 400);
    const badEdit = await ts.api.put(`/api/coaching/question-drafts/${single.id}`, { token: admin(), body: { answer: ['Z'] } });
    assert.equal(badEdit.status, 400);
    const edited = await ts.api.put(`/api/coaching/question-drafts/${single.id}`, { token: admin(), body: { stem: 'What commission rate does the Steady Income Fund pay advisers?' } });
    assert.equal(edited.status, 200, edited.text);

    const approved = await ts.api.post(`/api/coaching/question-drafts/${single.id}/audit`, { token: admin(), body: { action: 'approve' } });
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.body.data.status, 'approved');
    const question = approved.body.data.question;
    assert.deepEqual(
      [question.stem, question.type, question.answer, question.domain, question.status],
      ['What commission rate does the Steady Income Fund pay advisers?', 'single', ['B'], 'wealth', 'active'],
    );
    assert.equal(approved.body.data.draft.question_id, question.id);
    const inBank = await ts.api.get(`/api/exam/questions/${question.id}`, { token: admin() });
    assert.equal(inBank.status, 200);
    assert.match(inBank.body.data.explanation, new RegExp(`知识片段 #${chunks.commission.id}`));
    const twice = await ts.api.post(`/api/coaching/question-drafts/${single.id}/audit`, { token: admin(), body: { action: 'approve' } });
    assert.deepEqual([twice.status, twice.body.error], [409, 'coaching.draft_reviewed']);

    const tf = queue.body.data.items.find((d: Json) => d.type === 'true_false');
    const rejected = await ts.api.post(`/api/coaching/question-drafts/${tf.id}/audit`, { token: admin(), body: { action: 'reject', reject_reason: 'Too close to the single-choice one' } });
    assert.equal(rejected.status, 200);
    assert.deepEqual([rejected.body.data.draft.status, rejected.body.data.draft.reject_reason, rejected.body.data.question], ['rejected', 'Too close to the single-choice one', null]);
    const stored = await ts.api.get(`/api/coaching/question-drafts/${tf.id}`, { token: admin() });
    assert.equal(stored.body.data.reject_reason, 'Too close to the single-choice one');
    assert.equal((await ts.api.put(`/api/coaching/question-drafts/${tf.id}`, { token: admin(), body: { stem: 'again' } })).status, 409);

    const rejectedList = await ts.api.get('/api/coaching/question-drafts?status=rejected', { token: admin() });
    assert.deepEqual(rejectedList.body.data.items.map((d: Json) => d.id), [tf.id]);
    // The rep's review item of that fact now points at the bank question.
    const items = await ts.api.get(`/api/coaching/review-items?report_id=${report.id}`, { token: rep.token });
    const item = items.body.data.items.find((i: Json) => i.finding_id === single.finding_ids[0]);
    assert.deepEqual(item.question_ids, [question.id]);
  });

  test('the scenario opens in the coach with the customer’s objections, from the message and from the quick action', async () => {
    fake.behave({ chunks: ['How high is the commission, then?'] });
    const launch = report.scenario.launch;
    const res = await ts.api.post('/api/ai-chat/message', { token: rep.token, body: launch.message });
    assert.equal(res.status, 200, res.text);
    assert.equal(sseEvents(res.text).at(-1)?.type, 'done');
    const system = fake.requests.at(-1)!.body.messages![0]!.content;
    assert.ok(system.includes(TURNS[1].text) && system.includes(TURNS[3].text), system);
    assert.match(system, /You play the customer/);
    assert.match(system, /佣金比例: the employee said 3\.5 percent; the approved value is 2\.5%/);
    assert.match(system, /Product in context[\s\S]*Steady Income Fund/);

    const scenario = await ts.api.post('/api/ai-chat/quick-action', { token: rep.token, body: launch.quick_action });
    assert.equal(scenario.status, 200, scenario.text);
    assert.equal(scenario.body.data.coaching_report_id, report.id);
    assert.equal(scenario.body.data.product.id, productId);
    assert.ok(fake.requests.at(-1)!.body.messages![0]!.content.includes(TURNS[3].text));

    // Another rep cannot play this call's customer.
    const foreign = await ts.api.post('/api/ai-chat/message', { token: other.token, body: launch.message });
    assert.equal(foreign.status, 404);
    const foreignAction = await ts.api.post('/api/ai-chat/quick-action', { token: other.token, body: launch.quick_action });
    assert.equal(foreignAction.status, 404);
  });

  test('the rep works through their review list; nobody else sees it', async () => {
    // The report's own (a compliance inspection of the same call adds its items too).
    const list = await ts.api.get(`/api/coaching/review-items?mastered=false&report_id=${report.id}`, { token: rep.token });
    assert.equal(list.body.data.total, 3);
    const item = list.body.data.items[0];
    assert.ok(item.segments[0].audio_url.startsWith(report.recording.url.split('?')[0]));
    assert.equal((await ts.api.get(`/api/coaching/review-items/${item.id}`, { token: other.token })).status, 404);
    assert.equal((await ts.api.put(`/api/coaching/review-items/${item.id}`, { token: other.token, body: { mastered: true } })).status, 404);
    assert.equal((await ts.api.put(`/api/coaching/review-items/${item.id}`, { token: rep.token, body: { mastered: 'yes' } })).status, 400);
    const mastered = await ts.api.put(`/api/coaching/review-items/${item.id}`, { token: rep.token, body: { mastered: true } });
    assert.deepEqual([mastered.status, mastered.body.data.mastered, typeof mastered.body.data.mastered_at], [200, true, 'string']);
    assert.equal((await ts.api.get(`/api/coaching/review-items?mastered=false&report_id=${report.id}`, { token: rep.token })).body.data.total, 2);
    assert.equal((await ts.api.get('/api/coaching/review-items', { token: other.token })).body.data.total, 0);
  });

  test('privacy: another rep gets 404; an admin sees every report, and its audio only while coaching_admin_listen is on', async () => {
    assert.equal((await ts.api.get(`/api/coaching/reports/${report.id}`, { token: other.token })).status, 404);
    assert.equal((await ts.api.get('/api/coaching/reports', { token: other.token })).body.data.total, 0);
    assert.equal((await fetchBytes(`/api/coaching/reports/${report.id}/recording`, { authorization: `Bearer ${other.token}` })).status, 404);
    // The rep's own signed link is the rep's: it does not become another reader's.
    const foreignToken = report.recording.url.replace(/token=\d+\./, `token=${other.id}.`);
    assert.equal((await fetchBytes(foreignToken)).status, 401);

    const original = new Uint8Array(await fs.readFile(call.file));
    const own = await fetchBytes(report.recording.url);
    assert.equal(own.status, 200);
    assert.equal(own.headers.get('content-type'), 'audio/wav');
    assert.deepEqual(own.bytes, original);
    const ranged = await fetchBytes(report.recording.url, { range: 'bytes=44-99' });
    assert.deepEqual([ranged.status, ranged.bytes.length], [206, 56]);
    assert.deepEqual((await fetchBytes(`/api/audio/transcriptions/${transcriptionId}/recording`, { authorization: `Bearer ${rep.token}` })).bytes, original);

    const seen = await ts.api.get(`/api/coaching/reports/${report.id}`, { token: admin() });
    assert.equal(seen.status, 200);
    assert.deepEqual(seen.body.data.recording, { available: false, url: null, expires_at: null, reason: 'admin_listen_off' });
    assert.equal(seen.body.data.facts[0].segments[0].audio_url, null);
    const refused = await fetchBytes(`/api/coaching/reports/${report.id}/recording`, { authorization: `Bearer ${admin()}` });
    assert.equal(refused.status, 403);
    assert.equal(JSON.parse(new TextDecoder().decode(refused.bytes)).error, 'coaching.admin_listen_off');
    const all = await ts.api.get(`/api/coaching/reports?user_id=${rep.id}`, { token: admin() });
    assert.deepEqual(all.body.data.items.map((r: Json) => r.id), [report.id]);
    assert.equal((await ts.api.get(`/api/coaching/reports?user_id=${other.id}`, { token: admin() })).body.data.total, 0);

    await setConfig({ coaching_admin_listen: true });
    const allowed = (await ts.api.get(`/api/coaching/reports/${report.id}`, { token: admin() })).body.data;
    assert.equal(allowed.recording.available, true);
    assert.deepEqual((await fetchBytes(allowed.recording.url)).bytes, original);
    assert.equal((await fetchBytes(`/api/coaching/reports/${report.id}/recording`, { authorization: `Bearer ${admin()}` })).status, 200);
    // Turned off again: the link handed out meanwhile stops working at once.
    await setConfig({ coaching_admin_listen: false });
    assert.equal((await fetchBytes(allowed.recording.url)).status, 403);
    // The admin never reaches the rep's transcription through the audio domain.
    assert.equal((await fetchBytes(`/api/audio/transcriptions/${transcriptionId}/recording`, { authorization: `Bearer ${admin()}` })).status, 404);
  });

  test('a mono transcript is refused with speakers_required', async () => {
    const fx = await callFixtures();
    fake.behave({ transcription: { text: 'hello there', language: 'en', segments: [{ start: 0, end: 2, text: 'hello there' }] } });
    const mono = await transcribe(rep.token, fx.files['call-mono.wav']!, {});
    assert.equal(mono.has_speakers, false);
    const res = await analyse(rep.token, { transcription_id: mono.id, rep_speaker: 'rep' });
    assert.deepEqual([res.status, res.body.error], [400, 'workbench.speakers_required']);
  });

  test('a task run with the transcript is a source too', async () => {
    fake.behave({ chunks: ['## Objections\nNone.\n\n## Commitments\nNone.'] });
    const run = await workerChat(ts, rep.token, { message: 'Analyse this call.', skill_key: 'call_analysis', documents: [{ transcription_id: transcriptionId }] });
    assert.equal(run.status, 200, JSON.stringify(run.envelope));
    behave();
    const res = await analyse(rep.token, { task_id: run.taskId, run_id: run.runId, rep_speaker: 'rep', product_id: productId });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.data.source, { kind: 'task_run', transcription_id: transcriptionId, task_id: run.taskId, run_id: run.runId });
    assert.equal(res.body.data.product.detected, false);
    assert.equal((await analyse(other.token, { task_id: run.taskId, run_id: run.runId, rep_speaker: 'rep' })).status, 404);
    const noTranscript = await workerChat(ts, rep.token, { message: 'Hello' });
    const refused = await analyse(rep.token, { task_id: noTranscript.taskId, run_id: noTranscript.runId, rep_speaker: 'rep' });
    assert.deepEqual([refused.status, refused.body.error], [400, 'coaching.no_transcript']);
  });

  test('without a chat model the deterministic part still runs and the report says what needs a model', async () => {
    await setConfig({ llm_base_url: '', llm_model: '' });
    const calls = fake.requests.length;
    const res = await analyse(rep.token, { transcription_id: transcriptionId, rep_speaker: 'rep' });
    assert.equal(res.status, 201, res.text);
    const partial = res.body.data;
    assert.equal(fake.requests.length, calls, 'no model was called');
    assert.deepEqual([partial.model.status, partial.model.error.code], ['unavailable', 'no_model_route']);
    assert.deepEqual(partial.parts, { figures: 'done', structured_facts: 'done', text_facts: 'needs_model', objections: 'needs_model', practice: 'partial', scenario: 'needs_model' });
    assert.deepEqual(partial.needs_model, ['text_facts', 'objections', 'practice', 'scenario']);
    assert.deepEqual(partial.facts.map((f: Json) => [f.field, f.verdict]), [['commission_rate', 'misstated'], ['risk_level', 'misstated']]);
    assert.equal(partial.practice.length, 3);
    assert.deepEqual(partial.objections, []);
    assert.equal(partial.scenario, null);
    const noScenario = await ts.api.post('/api/ai-chat/message', { token: rep.token, body: { message: 'start', context: { coaching_report_id: partial.id } } });
    assert.deepEqual([noScenario.status, noScenario.body.error], [400, 'coaching.no_scenario']);
    await setConfig({ llm_base_url: fake.baseUrl, llm_model: 'fake-model' });
  });

  test('a recording in a format browsers do not play (amr) is kept as Ogg/Opus', async () => {
    const fx = await callFixtures();
    fake.behave({ transcription: { text: 'hello there', language: 'en', segments: [{ start: 0, end: 2, text: 'hello there' }] } });
    const amr = await transcribe(rep.token, fx.files['call.amr']!, {});
    assert.equal(amr.has_recording, true);
    const audio = await fetchBytes(`/api/audio/transcriptions/${amr.id}/recording`, { authorization: `Bearer ${rep.token}` });
    assert.equal(audio.headers.get('content-type'), 'audio/ogg');
    assert.equal(new TextDecoder().decode(audio.bytes.subarray(0, 4)), 'OggS');
    // Kept audio is the install owner's only, like everything in DATA_DIR.
    const dir = path.join(ts.dataDir, 'audio', 'recordings');
    if (process.platform !== 'win32') {
      assert.equal((await fs.stat(dir)).mode & 0o077, 0);
      for (const name of await fs.readdir(dir)) assert.equal((await fs.stat(path.join(dir, name))).mode & 0o777, 0o600, name);
    }
  });

  test('the rep can remove the kept audio; the report then says it is not kept', async () => {
    const removed = await ts.api.delete(`/api/audio/transcriptions/${transcriptionId}/recording`, { token: rep.token });
    assert.deepEqual(removed.body.data, { id: transcriptionId, has_recording: false, removed: true });
    const after = (await ts.api.get(`/api/coaching/reports/${report.id}`, { token: rep.token })).body.data;
    assert.deepEqual(after.recording.reason, 'not_kept');
    const gone = await fetchBytes(`/api/coaching/reports/${report.id}/recording`, { authorization: `Bearer ${rep.token}` });
    assert.equal(gone.status, 404);
    assert.equal(JSON.parse(new TextDecoder().decode(gone.bytes)).error, 'audio.recording_unavailable');
  });
});

describe('coaching on the local speech route, offline, without a chat model', { skip: LOCAL_PATH_MISSING || (usingPostgres && 'whisper.cpp runs the same on both databases: once, on SQLite') }, () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
    await fs.mkdir(path.join(ts.dataDir, 'models'), { recursive: true });
    await writeTinyWhisperModel(path.join(ts.dataDir, 'models', 'ggml-tiny-test.bin'), { segmentSeconds: 30 });
    const route = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { name: 'Desk whisper', kind: 'audio', provider: 'local-whisper', model: 'ggml-tiny-test.bin' } });
    assert.equal(route.status, 201, route.text);
    await ts.api.put('/api/system/config', { token: ts.adminToken, body: { configs: { audio_local_quality: 'fast' } } });
  });
  after(() => ts?.close());

  test('a stereo call transcribed by whisper.cpp gets a report: figures, practice, and what needs a model', async () => {
    const rep = await ts.user();
    const fx = await callFixtures();
    const file = fx.files['call-stereo.wav']!;
    const res = await ts.api.post('/api/audio/transcribe', { token: rep.token, form: form({ channels: 'rep,customer' }, { name: 'call.wav', data: new Uint8Array(await fs.readFile(file)) }) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.has_speakers, true);
    assert.equal(res.body.data.has_recording, true);
    const made = await ts.api.post('/api/coaching/calls', { token: rep.token, body: { transcription_id: res.body.data.id, rep_speaker: 'rep' } });
    assert.equal(made.status, 201, made.text);
    const report = made.body.data;
    assert.equal(report.transcription.route_is_local, true);
    assert.equal(report.model.status, 'unavailable');
    assert.deepEqual(report.rep_figures.speaker, 'rep');
    assert.equal(report.practice.length, 3);
    assert.equal(report.recording.available, true);
    const audio = await fetch(ts.url + report.recording.url);
    assert.equal(audio.status, 200);
    assert.deepEqual(new Uint8Array(await audio.arrayBuffer()), new Uint8Array(await fs.readFile(file)));
  });
});
