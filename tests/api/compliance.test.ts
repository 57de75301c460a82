// Compliance inspection of sales calls over real HTTP: scripted Chinese calls transcribed through the fake cloud
// route (so the transcript is exact), inspected by themselves after transcription and on request, against the
// default rule set and edited ones; what reps and admins may see; the review item, the admin notice, stats, export.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { form } from './media-fixtures.js';
import { toneWav } from './audio-fixtures.js';
import { COMPLIANT, VIOLATING, addCloudRoute, createProduct, segmentsOf, transcribeScript, type Turn } from './compliance-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const outcomes = (inspection: Json): Record<string, string> => Object.fromEntries(inspection.results.map((r: Json) => [r.rule_key, r.outcome]));

describe('compliance inspection /api/compliance', () => {
  let ts: TestServer;
  let fake: FakeModel;
  let rep: { id: number; token: string };
  let other: { id: number; token: string };
  let r2: number;
  let r4: number;

  const admin = () => ts.adminToken;
  const inspectNow = (token: string, body: Record<string, unknown>) => ts.api.post('/api/compliance/inspections', { token, body });
  const call = async (turns: Turn[], productId?: number, token = rep.token) => {
    const id = await transcribeScript(ts, fake, token, turns);
    const res = await inspectNow(token, { transcription_id: id, ...(productId !== undefined && { product_id: productId }) });
    assert.equal(res.status, 201, res.text);
    return res.body.data as Json;
  };

  before(async () => {
    ts = await startTestServer();
    fake = await startFakeModel();
    rep = await ts.user('employee', { department: '财富管理部' });
    other = await ts.user('employee', { department: '零售部' });
    await addCloudRoute(ts, fake);
    r2 = await createProduct(ts, { code: 'WY-1', name: '稳盈理财', category: 'wealth', risk_level: 'R2', cooling_off_days: 15 });
    r4 = await createProduct(ts, { code: 'JQ-4', name: '进取成长', category: 'wealth', risk_level: 'R4' });
  });
  after(async () => {
    await fake?.close();
    await ts?.close();
  });

  test('products take a risk level R1–R5 (other spellings normalised, anything else refused) and a cooling-off period', async () => {
    const product = (await ts.api.get(`/api/products/${r2}`, { token: rep.token })).body.data;
    assert.equal(product.risk_level, 'R2');
    assert.equal(product.cooling_off_days, 15);
    const pr3 = await ts.api.put(`/api/products/${r4}`, { token: admin(), body: { risk_level: 'pr3' } });
    assert.equal(pr3.body.data.risk_level, 'R3');
    const words = await ts.api.put(`/api/products/${r4}`, { token: admin(), body: { risk_level: '中高风险' } });
    assert.equal(words.body.data.risk_level, 'R4');
    const bad = await ts.api.put(`/api/products/${r4}`, { token: admin(), body: { risk_level: 'R6' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'validation_failed');
    assert.equal((await ts.api.put(`/api/products/${r4}`, { token: admin(), body: { cooling_off_days: -1 } })).status, 400);
  });

  test('a compliant call passes every default rule, with evidence quoting the rep and the customer’s answer', async () => {
    const inspection = await call(COMPLIANT, r2);
    assert.deepEqual(outcomes(inspection), {
      identity: 'pass',
      risk_tolerance_asked: 'pass',
      risk_match: 'pass',
      risk_disclosure: 'pass',
      fee_disclosure: 'pass',
      no_guarantee: 'pass',
      cooling_off: 'pass',
    });
    assert.equal(inspection.score, 100);
    assert.equal(inspection.revision, 1);
    assert.equal(inspection.rule_set_version, 1);
    assert.equal(inspection.customer_risk, 'C2');
    assert.equal(inspection.critical_failures, 0);
    assert.deepEqual(inspection.product, { id: r2, code: 'WY-1', name: '稳盈理财', risk_level: 'R2' });
    const asked = inspection.results.find((r: Json) => r.rule_key === 'risk_tolerance_asked');
    assert.deepEqual(
      asked.evidence.map((e: Json) => [e.segment_index, e.speaker, e.quote, e.start, e.end]),
      [
        [2, 'rep', COMPLIANT[2]!.text, 20, 28],
        [3, 'customer', COMPLIANT[3]!.text, 30, 38],
      ],
    );
    // The audio is kept: each quote plays from its own time.
    assert.match(asked.evidence[0].audio_url, new RegExp(`^/api/compliance/inspections/${inspection.id}/recording\\?token=.+#t=20,28$`));
    const audio = await fetch(ts.url + asked.evidence[0].audio_url.split('#')[0]);
    assert.equal(audio.status, 200);
    assert.ok((await audio.arrayBuffer()).byteLength > 0);
    const get = await ts.api.get(`/api/compliance/inspections/${inspection.id}`, { token: rep.token });
    assert.equal(get.status, 200);
    assert.deepEqual(outcomes(get.body.data), outcomes(inspection));
  });

  test('a violating call fails every default rule, quoting what the rep promised', async () => {
    const inspection = await call(VIOLATING, r2);
    assert.deepEqual(outcomes(inspection), {
      identity: 'fail',
      risk_tolerance_asked: 'fail',
      risk_match: 'pass',
      risk_disclosure: 'fail',
      fee_disclosure: 'fail',
      no_guarantee: 'fail',
      cooling_off: 'fail',
    });
    const promise = inspection.results.find((r: Json) => r.rule_key === 'no_guarantee');
    assert.equal(promise.severity, 'critical');
    assert.deepEqual(promise.evidence.map((e: Json) => [e.segment_index, e.speaker, e.quote]), [[2, 'rep', VIOLATING[2]!.text]]);
    assert.equal(inspection.outcome, 'fail');
    assert.equal(inspection.critical_failures, 2);
    assert.ok(inspection.score < 20, String(inspection.score));
  });

  test('each default rule on its own: one compliant call and one violating it', async () => {
    const without = (index: number, replacement?: string) => COMPLIANT.flatMap((t, i) => (i !== index ? [t] : replacement ? [{ ...t, text: replacement }] : [])) as Turn[];
    const cases: [string, Turn[]][] = [
      ['identity', without(0, '您好，打扰您了。')],
      ['risk_tolerance_asked', without(2, '您平时买理财吗？')],
      ['risk_disclosure', without(4, '好的，给您介绍稳盈理财，风险等级R2。')],
      ['fee_disclosure', without(7)],
      ['no_guarantee', without(6, '这个产品保本，收益稳稳的。')],
      ['cooling_off', without(8)],
    ];
    for (const [rule, turns] of cases) {
      const inspection = await call(turns, r2);
      const failed = Object.entries(outcomes(inspection)).filter(([, o]) => o === 'fail').map(([k]) => k);
      assert.deepEqual(failed, [rule], `${rule}: ${JSON.stringify(outcomes(inspection))}`);
    }
    // The identity must come within the first two minutes; the risk question before the product is named.
    const late = COMPLIANT.map((t, i) => (i === 0 ? { ...t, text: '您好。' } : t)).concat([{ side: 'rep', text: '忘了说，我是恒信银行的理财经理王芳。' }]);
    const lateId = await transcribeScript(ts, fake, rep.token, late);
    // Segment 10 starts at 100 s: still inside; pushed past 120 s it would not be. Checked with the window rule below.
    assert.equal(outcomes((await inspectNow(rep.token, { transcription_id: lateId, product_id: r2 })).body.data).identity, 'pass');
    const productFirst: Turn[] = [COMPLIANT[0]!, { side: 'rep', text: '给您介绍稳盈理财。' }, ...COMPLIANT.slice(2)];
    assert.equal(outcomes(await call(productFirst, r2)).risk_tolerance_asked, 'fail');
    // No cooling-off period: the rule does not apply.
    assert.equal(outcomes(await call(without(8), r4)).cooling_off, 'not_applicable');
  });

  test('full-width digits, Chinese numerals, 不保本 and the customer’s question do not trip no_guarantee; the rep saying 保本 does', async () => {
    const turns: Turn[] = [
      { side: 'customer', text: '这个保本吗？能保证收益吗？' },
      { side: 'rep', text: '不保本，不能保证收益，并非零风险。预期收益３．５％，百分之三点五，二零二六年到期。' },
      { side: 'customer', text: '零风险？稳赚不赔？' },
      { side: 'rep', text: '您是问保本吗？我们没有保本的承诺。' },
    ];
    assert.equal(outcomes(await call(turns, r2)).no_guarantee, 'pass');
    const answered = await call([...turns, { side: 'rep', text: '放心，保本的，保证收益。' }], r2);
    assert.equal(outcomes(answered).no_guarantee, 'fail');
    assert.deepEqual(answered.results.find((r: Json) => r.rule_key === 'no_guarantee').evidence.map((e: Json) => e.segment_index), [4]);
  });

  test('risk_match: a C2 customer and an R4 product fails, an R2 product passes', async () => {
    await ts.api.put(`/api/products/${r4}`, { token: admin(), body: { risk_level: 'R4' } });
    const r4Call = await call(COMPLIANT.map((t) => ({ ...t, text: t.text.replace('稳盈理财', '进取成长').replace('R2', 'R4') })), r4);
    const match = r4Call.results.find((r: Json) => r.rule_key === 'risk_match');
    assert.equal(match.outcome, 'fail');
    assert.match(match.note, /C2.*R4/);
    assert.deepEqual(match.evidence.map((e: Json) => [e.speaker, e.quote]), [['customer', COMPLIANT[3]!.text]]);
    assert.equal(outcomes(await call(COMPLIANT, r2)).risk_match, 'pass');
    // The product named in the call is found without product_id.
    const detected = await call(COMPLIANT);
    assert.equal(detected.product.id, r2);
  });

  test('every speaker-labelled transcription with a rep is inspected by itself; errors are explicit', async () => {
    const id = await transcribeScript(ts, fake, rep.token, VIOLATING);
    const listed = await ts.api.get(`/api/compliance/inspections?transcription_id=${id}`, { token: rep.token });
    assert.equal(listed.body.data.total, 1);
    assert.equal(listed.body.data.items[0].trigger, 'auto');
    assert.deepEqual(listed.body.data.items[0].failed_rules.sort(), ['cooling_off', 'fee_disclosure', 'identity', 'no_guarantee', 'risk_disclosure', 'risk_tolerance_asked']);

    // Speakers A/B: not inspected by itself; on request the rep must be named.
    const ab = await transcribeScript(ts, fake, rep.token, COMPLIANT.map((t) => ({ ...t, side: t.side === 'rep' ? 'A' : 'B' })));
    assert.equal((await ts.api.get(`/api/compliance/inspections?transcription_id=${ab}`, { token: rep.token })).body.data.total, 0);
    const unknown = await inspectNow(rep.token, { transcription_id: ab });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, 'compliance.rep_unknown');
    assert.deepEqual(unknown.body.details.speakers, ['A', 'B']);
    const named = await inspectNow(rep.token, { transcription_id: ab, rep_speaker: 'A', product_id: r2 });
    assert.equal(named.status, 201, named.text);
    assert.equal(named.body.data.score, 100);
    assert.equal((await inspectNow(rep.token, { transcription_id: ab, rep_speaker: 'C' })).body.error, 'compliance.unknown_speaker');

    // No speakers: the same error as coaching.
    fake.behave({ transcription: { text: '您好保本', language: 'zh', segments: [{ start: 0, end: 1, text: '您好' }, { start: 1, end: 2, text: '保本' }] } });
    const mono = (await ts.api.post('/api/audio/transcribe', { token: rep.token, form: form({}, { name: 'mono.wav', data: toneWav(0.5) }) })).body.data.id;
    const refused = await inspectNow(rep.token, { transcription_id: mono });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'workbench.speakers_required');

    assert.equal((await inspectNow(rep.token, { transcription_id: id, revision: 2 })).body.error, 'compliance.unknown_revision');
    assert.equal((await inspectNow(rep.token, { transcription_id: id, product_id: 999_999 })).status, 400);
    assert.equal((await inspectNow(rep.token, {})).status, 400);
    assert.equal((await inspectNow(rep.token, { transcription_id: 'x' })).status, 400);
    assert.equal((await ts.api.post('/api/compliance/inspections', { body: { transcription_id: id } })).status, 401);
    assert.equal((await inspectNow(other.token, { transcription_id: id })).status, 404);
  });

  test('employees see only their own inspections; rule sets and stats are admin-only', async () => {
    const mine = await call(VIOLATING, r2);
    assert.equal((await ts.api.get(`/api/compliance/inspections/${mine.id}`, { token: other.token })).status, 404);
    assert.equal((await ts.api.get('/api/compliance/inspections/999999', { token: rep.token })).status, 404);
    assert.equal((await ts.api.get('/api/compliance/inspections/abc', { token: rep.token })).status, 400);
    const theirs = await ts.api.get('/api/compliance/inspections', { token: other.token });
    assert.equal(theirs.body.data.total, 0);
    const all = await ts.api.get(`/api/compliance/inspections?user_id=${rep.id}`, { token: admin() });
    assert.ok(all.body.data.total > 5);
    // An admin reads any inspection; the audio only when coaching_admin_listen is on.
    const asAdmin = (await ts.api.get(`/api/compliance/inspections/${mine.id}`, { token: admin() })).body.data;
    assert.equal(asAdmin.results.find((r: Json) => r.rule_key === 'no_guarantee').evidence[0].audio_url, null);
    for (const path of ['/api/compliance/rule-sets', '/api/compliance/rule-sets/1', '/api/compliance/stats', '/api/compliance/inspections/export']) {
      assert.equal((await ts.api.get(path, { token: rep.token })).status, 403, path);
    }
    assert.equal((await ts.api.post('/api/compliance/rule-sets', { token: rep.token, body: {} })).status, 403);
  });

  test('a failed critical rule puts a practice item on the rep’s review list and notifies the admins', async () => {
    const inspection = await call(VIOLATING, r2);
    const items = (await ts.api.get('/api/coaching/review-items?size=200', { token: rep.token })).body.data.items.filter((i: Json) => i.inspection_id === inspection.id);
    assert.deepEqual(items.map((i: Json) => i.finding_id).sort(), ['compliance.no_guarantee', 'compliance.risk_tolerance_asked']);
    const promise = items.find((i: Json) => i.finding_id === 'compliance.no_guarantee');
    assert.equal(promise.report_id, null);
    assert.equal(promise.label, '不得承诺保本保收益');
    assert.equal(promise.claim, VIOLATING[2]!.text);
    assert.equal(promise.mastered, false);
    const marked = await ts.api.put(`/api/coaching/review-items/${promise.id}`, { token: rep.token, body: { mastered: true } });
    assert.equal(marked.body.data.mastered, true);
    const notices = (await ts.api.get('/api/notifications', { token: admin() })).body.data;
    const notice = notices.find((n: Json) => n.link === `/admin/compliance/inspections/${inspection.id}`);
    assert.ok(notice, JSON.stringify(notices.slice(0, 3)));
    assert.match(notice.title, /严重合规问题/);
    assert.match(notice.content, /不得承诺保本保收益/);
    assert.equal((await ts.api.get('/api/notifications', { token: rep.token })).body.data.filter((n: Json) => n.link?.includes('/compliance/')).length, 0);
  });

  test('rule sets: the default is listed; a rule edited after an inspection leaves that inspection unchanged', async () => {
    const sets = (await ts.api.get('/api/compliance/rule-sets', { token: admin() })).body.data;
    const def = sets.find((s: Json) => s.is_default);
    assert.equal(def.scope, 'all');
    assert.equal(def.rule_count, 7);
    const full = (await ts.api.get(`/api/compliance/rule-sets/${def.id}`, { token: admin() })).body.data;
    assert.deepEqual(full.rules.map((r: Json) => r.key), ['identity', 'risk_tolerance_asked', 'risk_match', 'risk_disclosure', 'fee_disclosure', 'no_guarantee', 'cooling_off']);

    const before = await call(COMPLIANT, r2);
    assert.equal(outcomes(before).fee_disclosure, 'pass');
    const rules = full.rules.map((r: Json) => (r.key === 'fee_disclosure' ? { ...r, phrases: ['年费'] } : r));
    const edited = await ts.api.put(`/api/compliance/rule-sets/${def.id}`, { token: admin(), body: { rules } });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.data.version, full.version + 1);

    const again = (await ts.api.get(`/api/compliance/inspections/${before.id}`, { token: rep.token })).body.data;
    assert.equal(again.rule_set_version, full.version);
    assert.equal(outcomes(again).fee_disclosure, 'pass');
    assert.equal(again.score, before.score);
    const after = await inspectNow(rep.token, { transcription_id: before.transcription_id, product_id: r2 });
    assert.equal(after.body.data.rule_set_version, full.version + 1);
    assert.equal(outcomes(after.body.data).fee_disclosure, 'fail');

    // A product's own rule set wins over the default; a bad phrase or a duplicate key is refused.
    const own = await ts.api.post('/api/compliance/rule-sets', {
      token: admin(),
      body: { name: '进取成长专项', scope: 'product', scope_value: r4, rules: [{ ...full.rules[5], key: 'no_promise', phrases: ['翻倍'] }] },
    });
    assert.equal(own.status, 201, own.text);
    const onR4 = await call([{ side: 'rep', text: '进取成长明年肯定翻倍。' }], r4);
    assert.deepEqual(onR4.results.map((r: Json) => [r.rule_key, r.outcome]), [['no_promise', 'fail']]);
    assert.equal(onR4.rule_set_id, own.body.data.id);
    const bad = await ts.api.post('/api/compliance/rule-sets', { token: admin(), body: { name: 'x', scope: 'all', rules: [{ ...full.rules[0], phrases: ['(保本'] }] } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'compliance.invalid_rule');
    const dup = await ts.api.post('/api/compliance/rule-sets', { token: admin(), body: { name: 'x', scope: 'all', rules: [full.rules[0], full.rules[0]] } });
    assert.equal(dup.body.error, 'validation_failed');
    assert.equal((await ts.api.post('/api/compliance/rule-sets', { token: admin(), body: { name: 'x', scope: 'product', scope_value: 999999, rules: [full.rules[0]] } })).status, 400);
    assert.equal((await ts.api.delete(`/api/compliance/rule-sets/${def.id}`, { token: admin() })).body.error, 'compliance.default_rule_set');
    const removed = await ts.api.delete(`/api/compliance/rule-sets/${own.body.data.id}`, { token: admin() });
    assert.equal(removed.body.data.status, 'inactive');
    // Restore the default's fee rule for the tests after.
    await ts.api.put(`/api/compliance/rule-sets/${def.id}`, { token: admin(), body: { rules: full.rules } });
  });

  test('stats by rule, department, product and month; the failed calls filtered; an Excel export', async () => {
    const stats = (await ts.api.get('/api/compliance/stats', { token: admin() })).body.data;
    assert.ok(stats.total > 10);
    const noGuarantee = stats.by_rule.find((r: Json) => r.key === 'no_guarantee');
    assert.ok(noGuarantee.inspections > noGuarantee.passed && noGuarantee.passed > 0);
    assert.equal(noGuarantee.pass_rate, noGuarantee.passed / noGuarantee.inspections);
    assert.deepEqual(stats.by_department.map((d: Json) => d.key), ['财富管理部']);
    assert.ok(stats.by_product.some((p: Json) => p.key === String(r2) && p.label === '稳盈理财'));
    assert.deepEqual(stats.by_month.map((m: Json) => m.key), [new Date().toISOString().slice(0, 7)]);

    const failed = (await ts.api.get('/api/compliance/inspections?rule_key=no_guarantee&outcome=fail&department=财富管理部&size=200', { token: admin() })).body.data;
    assert.ok(failed.total > 0);
    assert.ok(failed.items.every((i: Json) => i.failed_rules.includes('no_guarantee') && i.user.department === '财富管理部'));
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await ts.api.get(`/api/compliance/inspections?from=${today}&to=${today}`, { token: admin() })).body.data.total, stats.total);
    assert.equal((await ts.api.get('/api/compliance/inspections?to=2000-01-01', { token: admin() })).body.data.total, 0);
    assert.equal((await ts.api.get('/api/compliance/inspections?from=nope', { token: admin() })).status, 400);

    const res = await fetch(`${ts.url}/api/compliance/inspections/export?rule_key=no_guarantee&outcome=fail`, { headers: { authorization: `Bearer ${admin()}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /spreadsheetml/);
    const { default: Excel } = await import('exceljs');
    const book = new Excel.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets[0]!;
    assert.equal(sheet.getRow(1).getCell(3).value, '销售');
    assert.equal(sheet.rowCount - 1, failed.total);
  });

  test('a chat model gives a second opinion kept apart: it never turns a failed rule into a pass; no route, off, or a bad reply still store the inspection', async () => {
    const transcribeWith = async (chunks: string[]) => {
      fake.behave({ transcription: { text: VIOLATING.map((t) => t.text).join(''), language: 'zh', segments: segmentsOf(VIOLATING) }, chunks });
      const res = await ts.api.post('/api/audio/transcribe', { token: rep.token, form: form({ speakers: 'true' }, { name: 'opinion.wav', data: toneWav(0.5) }) });
      assert.equal(res.status, 200, res.text);
      const inspected = await inspectNow(rep.token, { transcription_id: res.body.data.id });
      assert.equal(inspected.status, 201, inspected.text);
      return (await ts.api.get(`/api/compliance/inspections/${inspected.body.data.id}`, { token: rep.token })).body.data as Json;
    };
    // No chat route yet: unavailable.
    assert.deepEqual((await transcribeWith([])).second_opinion, { status: 'unavailable', findings: [] });

    const route = await ts.api.post('/api/ai/routes', { token: admin(), body: { kind: 'chat', name: 'Cloud chat', provider: 'openai-compatible', base_url: fake.baseUrl, model: 'gpt-test', is_local: false } });
    assert.equal(route.status, 201, route.text);
    const reply = {
      findings: [
        { rule_key: 'no_guarantee', outcome: 'pass', reason: '模型认为未承诺收益', segments: [2] },
        { rule_key: 'risk_disclosure', outcome: 'fail', reason: '未提示产品风险', segments: [2, 99] },
        { rule_key: 'made_up', outcome: 'fail', reason: '不存在的规则', segments: [0] },
        { rule_key: 'identity', outcome: 'fail', reason: '没有依据', segments: [99] },
      ],
    };
    const asked = fake.requests.length;
    const complete = await transcribeWith(['```json\n', JSON.stringify(reply), '\n```']);
    assert.equal(complete.second_opinion.status, 'complete');
    assert.deepEqual(
      complete.second_opinion.findings.map((f: Json) => [f.rule_key, f.outcome, f.reason, f.evidence.map((e: Json) => [e.segment_index, e.quote])]),
      [
        ['no_guarantee', 'pass', '模型认为未承诺收益', [[2, VIOLATING[2]!.text]]],
        ['risk_disclosure', 'fail', '未提示产品风险', [[2, VIOLATING[2]!.text]]],
      ],
    );
    // The deterministic verdict stands.
    assert.equal(outcomes(complete).no_guarantee, 'fail');
    assert.equal(complete.outcome, 'fail');
    const prompt = fake.requests.slice(asked).find((r) => r.path.endsWith('/chat/completions'));
    assert.ok(prompt?.body.messages?.some((m) => m.content.includes('no_guarantee') && m.content.includes(VIOLATING[2]!.text)));

    const failed = await transcribeWith(['这不是 JSON']);
    assert.deepEqual(failed.second_opinion, { status: 'failed', findings: [] });
    assert.equal(outcomes(failed).no_guarantee, 'fail');

    assert.equal((await ts.api.put('/api/system/config', { token: admin(), body: { configs: { compliance_second_opinion: false } } })).status, 200);
    const off = await transcribeWith([JSON.stringify(reply)]);
    assert.deepEqual(off.second_opinion, { status: 'off', findings: [] });
    assert.equal((await ts.api.put('/api/system/config', { token: admin(), body: { configs: { compliance_second_opinion: true } } })).status, 200);
    assert.equal((await ts.api.delete(`/api/ai/routes/${route.body.data.id}`, { token: admin() })).status, 200);
  });
});

