import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

describe('workbench specialists', () => {
  let s: TestServer;
  let employee: { token: string };
  const admin = () => ({ token: s.adminToken });
  const create = async (body: Record<string, unknown>) => {
    const res = await s.api.post('/api/specialists', { ...admin(), body });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  };
  const keys = async (query: string, token = employee.token) => {
    const res = await s.api.get(`/api/specialists${query}`, { token });
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((sp: { key: string }) => sp.key).sort();
  };

  before(async () => {
    s = await startTestServer();
    employee = await s.user();
  });
  after(() => s.close());

  test('the general assistant is seeded with state system and the built-in skills', async () => {
    const res = await s.api.get('/api/specialists?state=system', { token: employee.token });
    assert.equal(res.status, 200);
    const [general] = res.body.data;
    assert.equal(res.body.data.length, 1);
    assert.equal(general.key, 'general_assistant');
    assert.equal(general.state, 'system');
    assert.ok(general.rule_file_markdown.length > 0);
    assert.deepEqual(general.allowed_skills.slice(0, 2), ['batch_extraction', 'contract_review']);
  });

  test('GET state: omitted → active only; all → admin only, no system; system → only system; other → exact', async () => {
    await create({ key: 'q_active', name: 'Active one' });
    await create({ key: 'q_inactive', name: 'Inactive one', state: 'inactive' });

    const active = await keys('');
    assert.ok(active.includes('q_active'));
    assert.ok(!active.includes('q_inactive') && !active.includes('general_assistant'));
    const activeStates = (await s.api.get('/api/specialists', { token: employee.token })).body.data.map((sp: { state: string }) => sp.state);
    assert.ok(activeStates.every((state: string) => state === 'active'));

    const all = await keys('?state=all', s.adminToken);
    assert.ok(all.includes('q_active') && all.includes('q_inactive'));
    assert.ok(!all.includes('general_assistant'), 'system specialists appear only when system is asked for');

    const forbidden = await s.api.get('/api/specialists?state=all', { token: employee.token });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error, 'forbidden');

    assert.deepEqual(await keys('?state=system'), ['general_assistant']);
    const inactive = await keys('?state=inactive');
    assert.ok(inactive.includes('q_inactive') && !inactive.includes('q_active'));
    assert.deepEqual(await keys('?state=archived'), []);
  });

  test('create stores allowed_skills in order as compact JSON and JSON fields compact', async () => {
    const sp = await create({
      key: 'contract_clerk',
      name: 'Contract clerk',
      rule_file_markdown: '# Contract clerk\nChecks contracts.',
      allowed_skills: ['contract_review', 'batch_extraction'],
      interaction_card_json: { title: 'Contracts', fields: [1, 2] },
      inputs_records_json: '[ { "name" : "contract" } ]',
    });
    assert.equal(sp.state, 'active');
    assert.deepEqual(sp.allowed_skills, ['contract_review', 'batch_extraction']);
    assert.equal(sp.interaction_card_json, '{"title":"Contracts","fields":[1,2]}');
    assert.equal(sp.inputs_records_json, '[{"name":"contract"}]');
    const row = await s.server.db('specialists').where({ key: 'contract_clerk' }).first();
    assert.equal(row.allowed_skills, '["contract_review","batch_extraction"]');
    assert.deepEqual((await s.api.get(`/api/specialists/${sp.id}`, { token: employee.token })).body.data, sp);
  });

  test('create rejects bad input with 400 and a duplicate key with 409', async () => {
    const bad = async (body: Record<string, unknown>, pattern: RegExp) => {
      const res = await s.api.post('/api/specialists', { ...admin(), body });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error, 'validation_failed');
      assert.match(res.body.message, pattern);
    };
    await bad({ name: 'No key' }, /key/);
    await bad({ key: 'has space', name: 'x' }, /key/);
    await bad({ key: 'k1' }, /name/);
    await bad({ key: 'k1', name: 'x', allowed_skills: ['batch_extraction', 'no_such_skill'] }, /no_such_skill/);
    await bad({ key: 'k1', name: 'x', allowed_skills: ['contract_review', 'contract_review'] }, /repeat/);
    await bad({ key: 'k1', name: 'x', allowed_skills: 'contract_review' }, /allowed_skills/);
    await bad({ key: 'k1', name: 'x', interaction_card_json: '{not json' }, /interaction_card_json.*JSON/);
    await bad({ key: 'k1', name: 'x', inputs_records_json: 42 }, /inputs_records_json/);
    await bad({ key: 'k1', name: 'x', state: 'system' }, /system/);
    await bad({ key: 'k1', name: 'x', state: 'retired' }, /state/);

    await create({ key: 'dup_key', name: 'First' });
    const dup = await s.api.post('/api/specialists', { ...admin(), body: { key: 'dup_key', name: 'Second' } });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error, 'conflict');
    assert.equal(dup.body.data, null);
  });

  test('update checks key uniqueness excluding itself and keeps omitted fields', async () => {
    const a = await create({ key: 'upd_a', name: 'A', rule_file_markdown: 'Rule A', allowed_skills: ['batch_extraction'], interaction_card_json: '{"a":1}' });
    await create({ key: 'upd_b', name: 'B' });

    const same = await s.api.put(`/api/specialists/${a.id}`, { ...admin(), body: { key: 'upd_a', name: 'A renamed' } });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.data.name, 'A renamed');
    assert.equal(same.body.data.rule_file_markdown, 'Rule A');
    assert.deepEqual(same.body.data.allowed_skills, ['batch_extraction']);
    assert.equal(same.body.data.interaction_card_json, '{"a":1}');

    const taken = await s.api.put(`/api/specialists/${a.id}`, { ...admin(), body: { key: 'upd_b' } });
    assert.equal(taken.status, 409);

    const skills = await s.api.put(`/api/specialists/${a.id}`, { ...admin(), body: { allowed_skills: ['contract_review', 'batch_extraction'], interaction_card_json: null, state: 'inactive' } });
    assert.equal(skills.status, 200);
    assert.deepEqual(skills.body.data.allowed_skills, ['contract_review', 'batch_extraction']);
    assert.equal(skills.body.data.interaction_card_json, null);
    assert.equal(skills.body.data.state, 'inactive');

    for (const body of [{ allowed_skills: ['ghost'] }, { allowed_skills: ['batch_extraction', 'batch_extraction'] }, { inputs_records_json: '[1,' }, { state: 'system' }, { name: '' }, {}]) {
      const res = await s.api.put(`/api/specialists/${a.id}`, { ...admin(), body });
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.text}`);
    }
    assert.equal((await s.api.put('/api/specialists/999999', { ...admin(), body: { name: 'x' } })).status, 404);
    assert.equal((await s.api.put('/api/specialists/abc', { ...admin(), body: { name: 'x' } })).status, 400);
  });

  test('a system specialist keeps its key and state and cannot be deleted', async () => {
    const [general] = (await s.api.get('/api/specialists?state=system', admin())).body.data;
    const rule = await s.api.put(`/api/specialists/${general.id}`, { ...admin(), body: { rule_file_markdown: '# General assistant\nEdited rule.', state: 'system' } });
    assert.equal(rule.status, 200, rule.text);
    assert.equal(rule.body.data.rule_file_markdown, '# General assistant\nEdited rule.');

    assert.equal((await s.api.put(`/api/specialists/${general.id}`, { ...admin(), body: { state: 'active' } })).status, 400);
    assert.equal((await s.api.put(`/api/specialists/${general.id}`, { ...admin(), body: { key: 'renamed_general' } })).status, 400);
    const del = await s.api.delete(`/api/specialists/${general.id}`, admin());
    assert.equal(del.status, 403);
    assert.equal(del.body.error, 'workbench.system_specialist');
    assert.deepEqual(await keys('?state=system'), ['general_assistant']);
  });

  test('delete removes a specialist; reads are for any user, writes for admins', async () => {
    const sp = await create({ key: 'to_delete', name: 'Short-lived' });
    assert.equal((await s.api.delete(`/api/specialists/${sp.id}`, { token: employee.token })).status, 403);
    const del = await s.api.delete(`/api/specialists/${sp.id}`, admin());
    assert.equal(del.status, 200);
    assert.deepEqual(del.body.data, { id: sp.id, deleted: true });
    assert.equal((await s.api.get(`/api/specialists/${sp.id}`, { token: employee.token })).status, 404);
    assert.equal((await s.api.delete(`/api/specialists/${sp.id}`, admin())).status, 404);

    assert.equal((await s.api.get('/api/specialists')).status, 401);
    assert.equal((await s.api.get(`/api/specialists/${sp.id}`)).status, 401);
    assert.equal((await s.api.post('/api/specialists', { body: { key: 'x', name: 'x' } })).status, 401);
    assert.equal((await s.api.post('/api/specialists', { token: employee.token, body: { key: 'x', name: 'x' } })).status, 403);
    assert.equal((await s.api.put(`/api/specialists/${sp.id}`, { token: employee.token, body: { name: 'x' } })).status, 403);
  });
});
