// Inspections made on a branch laptop go up to the central server exactly once (real central and branch server
// processes, as tests/api/sync.test.ts): the central copy keeps the results, names the central product and user,
// and notifies the central admins of a critical violation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startNode, type Node } from '../support/sync-nodes.js';
import { usingPostgres } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { form } from './media-fixtures.js';
import { toneWav } from './audio-fixtures.js';
import { VIOLATING, segmentsOf } from './compliance-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const PASSWORD = 'branch-pass-1';

async function ok(res: { status: number; text: string; body: { data: unknown } }, status = 200): Promise<Json> {
  assert.equal(res.status, status, res.text);
  return res.body.data;
}

describe(`compliance inspections sync up (central on ${usingPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  let central: Node;
  let branch: Node;
  let fake: FakeModel;
  let productId: number;

  const run = (node: Node) => node.api.post('/api/sync/run', { token: node.adminToken });

  before(async () => {
    [central, branch, fake] = await Promise.all([startNode({ postgres: usingPostgres }), startNode({ postgres: false }), startFakeModel()]);
    await ok(await central.api.post('/api/system/users', { token: central.adminToken, body: { username: 'alice', password: PASSWORD, full_name: '李丽', role: 'employee', department: '财富管理部' } }), 201);
    productId = (await ok(await central.api.post('/api/products', { token: central.adminToken, body: { code: 'WY-1', name: '稳盈理财', category: 'wealth', risk_level: 'R2', cooling_off_days: 15 } }), 201)).id;
    const { enrolment_token } = await ok(await central.api.post('/api/sync/devices', { token: central.adminToken, body: { name: 'Branch laptop' } }), 201);
    await ok(await branch.api.put('/api/sync/config', { token: branch.adminToken, body: { central_url: `http://127.0.0.1:${central.port}`, enrolment_token } }));
    await ok(await run(branch));
    await ok(await branch.api.post('/api/ai/routes', { token: branch.adminToken, body: { kind: 'audio', name: 'Cloud STT', provider: 'openai-compatible', base_url: fake.baseUrl, model: 'whisper-1', is_local: false } }), 201);
  });
  after(async () => {
    await fake?.close();
    await branch?.close();
    await central?.close();
  });

  test('an inspection made on the branch arrives once centrally, with its results, and notifies the central admins', async () => {
    const alice = await branch.api.login('alice', PASSWORD);
    fake.behave({ transcription: { text: VIOLATING.map((t) => t.text).join(''), language: 'zh', segments: segmentsOf(VIOLATING) } });
    const transcription = await ok(await branch.api.post('/api/audio/transcribe', { token: alice, form: form({ speakers: 'true' }, { name: 'call.wav', data: toneWav(0.5) }) }));
    const local = (await ok(await branch.api.get(`/api/compliance/inspections?transcription_id=${transcription.id}`, { token: alice }))).items;
    assert.equal(local.length, 1);
    const branchInspection = await ok(await branch.api.get(`/api/compliance/inspections/${local[0].id}`, { token: alice }));

    const summary = await ok(await run(branch));
    assert.equal(summary.conflicts, 0, JSON.stringify(summary));
    // The inspection is one change (its critical failures' practice cards go up as review-log changes beside it).
    const outbox = await branch.database()('sync_outbox').where({ entity: 'compliance_inspection' });
    assert.equal(outbox.length, 1);
    assert.ok(outbox[0].sent_at, 'the inspection was sent');
    // Pushed again (the answer lost on the way): still one.
    await branch.database()('sync_outbox').where({ entity: 'compliance_inspection' }).update({ sent_at: null, outcome: null });
    await ok(await run(branch));
    assert.equal((await ok(await run(branch))).pushed, 0);

    const listed = await ok(await central.api.get('/api/compliance/inspections?size=50', { token: central.adminToken }));
    assert.equal(listed.total, 1);
    const stored = await ok(await central.api.get(`/api/compliance/inspections/${listed.items[0].id}`, { token: central.adminToken }));
    assert.equal(stored.user.username, 'alice');
    assert.equal(stored.user.department, '财富管理部');
    assert.equal(stored.product.id, productId);
    assert.equal(stored.score, branchInspection.score);
    assert.deepEqual(
      stored.results.map((r: Json) => [r.rule_key, r.outcome, r.evidence.map((e: Json) => e.quote)]),
      branchInspection.results.map((r: Json) => [r.rule_key, r.outcome, r.evidence.map((e: Json) => e.quote)]),
    );
    // The audio stayed on the laptop.
    assert.ok(stored.results.every((r: Json) => r.evidence.every((e: Json) => e.audio_url === null)));
    const gids = await central.database()('compliance_inspections').select('gid');
    assert.deepEqual(gids.map((g: Json) => g.gid), [await branch.database()('compliance_inspections').where({ id: local[0].id }).first('gid').then((r: Json) => r.gid)]);
    const notices = await ok(await central.api.get('/api/notifications', { token: central.adminToken }));
    assert.equal(notices.filter((n: Json) => n.link === `/admin/compliance/inspections/${stored.id}`).length, 1);
    const stats = await ok(await central.api.get('/api/compliance/stats', { token: central.adminToken }));
    assert.equal(stats.total, 1);
  });

  test('a rule set made centrally arrives on the branch with its versions, and the branch inspection uses it', async () => {
    const sets = await ok(await central.api.get('/api/compliance/rule-sets', { token: central.adminToken }));
    const defaults = await ok(await central.api.get(`/api/compliance/rule-sets/${sets.find((s: Json) => s.is_default).id}`, { token: central.adminToken }));
    const noGuarantee = defaults.rules.find((r: Json) => r.key === 'no_guarantee');
    const made = await ok(
      await central.api.post('/api/compliance/rule-sets', { token: central.adminToken, body: { name: '稳盈专项', scope: 'product', scope_value: String(productId), rules: [{ ...noGuarantee, key: 'no_promise_v1', phrases: ['翻倍'] }] } }),
      201,
    );
    const edited = await ok(await central.api.put(`/api/compliance/rule-sets/${made.id}`, { token: central.adminToken, body: { rules: [{ ...noGuarantee, key: 'no_promise', phrases: ['稳赚不赔'] }] } }));
    assert.equal(edited.version, 2);
    // A rule set made on the branch stays there (central-owned: nothing goes up).
    await ok(await branch.api.post('/api/compliance/rule-sets', { token: branch.adminToken, body: { name: '分行自定义', scope: 'category', scope_value: 'fund', rules: [noGuarantee] } }), 201);

    const summary = await ok(await run(branch));
    assert.equal(summary.conflicts, 0, JSON.stringify(summary));
    const branchSets = await ok(await branch.api.get('/api/compliance/rule-sets', { token: branch.adminToken }));
    const arrived = branchSets.find((s: Json) => s.name === '稳盈专项');
    assert.ok(arrived, JSON.stringify(branchSets));
    assert.equal(arrived.version, 2);
    const branchProduct = (await branch.database()('products').where({ code: 'WY-1' }).first('id')).id;
    assert.equal(arrived.scope_value, String(branchProduct));
    // Both versions are kept: an old branch inspection naming version 1 is still explained by its rules.
    const versions = await branch.database()('compliance_rule_set_versions').where({ rule_set_id: arrived.id }).orderBy('version');
    assert.deepEqual(versions.map((v: Json) => [v.version, JSON.parse(v.rules)[0].key]), [[1, 'no_promise_v1'], [2, 'no_promise']]);
    assert.equal(branchSets.filter((s: Json) => s.is_default).length, 1, 'the default is one rule set on both sides');
    assert.equal((await central.database()('compliance_rule_sets').where({ name: '分行自定义' })).length, 0);

    const alice = await branch.api.login('alice', PASSWORD);
    fake.behave({ transcription: { text: VIOLATING.map((t) => t.text).join(''), language: 'zh', segments: segmentsOf(VIOLATING) } });
    const transcription = await ok(await branch.api.post('/api/audio/transcribe', { token: alice, form: form({ speakers: 'true' }, { name: 'call2.wav', data: toneWav(0.5) }) }));
    const [item] = (await ok(await branch.api.get(`/api/compliance/inspections?transcription_id=${transcription.id}`, { token: alice }))).items;
    const inspection = await ok(await branch.api.get(`/api/compliance/inspections/${item.id}`, { token: alice }));
    assert.equal(inspection.rule_set_id, arrived.id);
    assert.equal(inspection.rule_set_version, 2);
    assert.deepEqual(inspection.results.map((r: Json) => [r.rule_key, r.outcome]), [['no_promise', 'fail']]);

    // Up again: central names its own rule set and the same version.
    await ok(await run(branch));
    const gid = (await branch.database()('compliance_inspections').where({ id: item.id }).first('gid')).gid;
    const stored = await central.database()('compliance_inspections').where({ gid }).first('rule_set_id', 'rule_set_version');
    assert.deepEqual([Number(stored.rule_set_id), Number(stored.rule_set_version)], [made.id, 2]);
  });
});
