import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

describe('workbench skills, app definitions and actions', () => {
  let s: TestServer;
  let employee: { token: string };
  const admin = () => ({ token: s.adminToken });
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await s.api.post(path, { ...admin(), body });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  };
  const put = async (path: string, body: Record<string, unknown>) => {
    const res = await s.api.put(path, { ...admin(), body });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };

  before(async () => {
    s = await startTestServer();
    employee = await s.user();
  });
  after(() => s.close());

  test('built-in skills are seeded: batch_extraction (table) and contract_review (report)', async () => {
    const res = await s.api.get('/api/skills', { token: employee.token });
    assert.equal(res.status, 200);
    const byKey = new Map(res.body.data.map((sk: { key: string }) => [sk.key, sk]));
    const batch = byKey.get('batch_extraction') as Record<string, unknown>;
    const review = byKey.get('contract_review') as Record<string, unknown>;
    assert.equal(batch.object_kind, 'skill');
    assert.equal(batch.output_kind, 'table');
    assert.equal(batch.builtin, true);
    assert.equal(batch.exposed_to_user, true);
    assert.match(batch.prompt_template as string, /\{\{documents\}\}/);
    assert.equal(review.output_kind, 'report');
    assert.match(JSON.parse(review.config_json as string).checklist.join(' '), /Payment terms/);
  });

  for (const [path, kind] of [
    ['/api/skills', 'skill'],
    ['/api/xapps', 'xapp'],
  ] as const) {
    describe(`${path} (object_kind ${kind})`, () => {
      test('rule 2.3.1: exposed_to_user omitted on create → true, explicit false stays false, omitted on update → kept', async () => {
        const defaulted = await post(path, { key: `${kind}_default`, name: 'Defaulted' });
        assert.equal(defaulted.object_kind, kind);
        assert.strictEqual(defaulted.exposed_to_user, true);
        assert.equal(defaulted.state, 'active');
        assert.equal(defaulted.builtin, false);

        const hidden = await post(path, { key: `${kind}_hidden`, name: 'Hidden', exposed_to_user: false });
        assert.strictEqual(hidden.exposed_to_user, false);
        const reread = await s.api.get(`${path}/${hidden.id}`, admin());
        assert.strictEqual(reread.body.data.exposed_to_user, false);

        assert.strictEqual((await put(`${path}/${hidden.id}`, { description: 'only the description' })).exposed_to_user, false);
        assert.strictEqual((await put(`${path}/${hidden.id}`, { exposed_to_user: true })).exposed_to_user, true);
        assert.strictEqual((await put(`${path}/${hidden.id}`, { name: 'Renamed' })).exposed_to_user, true);
        assert.strictEqual((await put(`${path}/${hidden.id}`, { exposed_to_user: false })).exposed_to_user, false);
        assert.strictEqual((await put(`${path}/${defaulted.id}`, { name: 'Still exposed' })).exposed_to_user, true);

        for (const value of ['false', 0, null]) {
          const res = await s.api.put(`${path}/${hidden.id}`, { ...admin(), body: { exposed_to_user: value } });
          assert.equal(res.status, 400, `exposed_to_user ${JSON.stringify(value)} must be a JSON boolean`);
        }
      });

      test('employees see active, exposed definitions only; admins see and filter all', async () => {
        const shown = await post(path, { key: `${kind}_shown`, name: 'Shown' });
        const off = await post(path, { key: `${kind}_off`, name: 'Off', state: 'inactive' });
        const unexposed = await post(path, { key: `${kind}_unexposed`, name: 'Unexposed', exposed_to_user: false });
        const visible = (await s.api.get(path, { token: employee.token })).body.data.map((d: { id: number }) => d.id);
        assert.ok(visible.includes(shown.id));
        assert.ok(!visible.includes(off.id) && !visible.includes(unexposed.id));
        assert.equal((await s.api.get(`${path}/${unexposed.id}`, { token: employee.token })).status, 404);
        assert.equal((await s.api.get(`${path}/${shown.id}`, { token: employee.token })).status, 200);

        const all = (await s.api.get(path, admin())).body.data.map((d: { id: number }) => d.id);
        assert.ok([shown.id, off.id, unexposed.id].every((id) => all.includes(id)));
        const notExposed = (await s.api.get(`${path}?exposed_to_user=false`, admin())).body.data;
        assert.ok(notExposed.length > 0 && notExposed.every((d: { exposed_to_user: boolean }) => d.exposed_to_user === false));
        const inactive = (await s.api.get(`${path}?state=inactive`, admin())).body.data.map((d: { id: number }) => d.id);
        assert.deepEqual(inactive.includes(off.id), true);
        assert.equal((await s.api.get(`${path}?state=gone`, admin())).status, 400);
      });

      test('key unique (409 on create and on update, excluding itself); config_json is a compact JSON object', async () => {
        const a = await post(path, { key: `${kind}_uniq_a`, name: 'A', config_json: '{ "x" : [1, 2] }' });
        assert.equal(a.config_json, '{"x":[1,2]}');
        const b = await post(path, { key: `${kind}_uniq_b`, name: 'B', config_json: { y: true } });
        assert.equal(b.config_json, '{"y":true}');
        assert.equal((await s.api.post(path, { ...admin(), body: { key: `${kind}_uniq_a`, name: 'Again' } })).status, 409);
        assert.equal((await s.api.put(`${path}/${b.id}`, { ...admin(), body: { key: `${kind}_uniq_a` } })).status, 409);
        assert.equal((await put(`${path}/${a.id}`, { key: `${kind}_uniq_a`, name: 'A2' })).name, 'A2');

        for (const body of [{ name: 'no key' }, { key: 'ok_key' }, { key: 'bad key', name: 'x' }, { key: 'k', name: 'x', config_json: '[1]' }, { key: 'k', name: 'x', config_json: '{oops' }, { key: 'k', name: 'x', state: 'system' }]) {
          const res = await s.api.post(path, { ...admin(), body });
          assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.text}`);
          assert.equal(res.body.error, 'validation_failed');
        }
      });

      test('401 without token, 403 for employee writes, 404 for a missing id', async () => {
        assert.equal((await s.api.get(path)).status, 401);
        assert.equal((await s.api.post(path, { token: employee.token, body: { key: 'emp', name: 'x' } })).status, 403);
        const [first] = (await s.api.get(path, admin())).body.data;
        assert.equal((await s.api.put(`${path}/${first.id}`, { token: employee.token, body: { name: 'x' } })).status, 403);
        assert.equal((await s.api.get(`${path}/987654`, admin())).status, 404);
        assert.equal((await s.api.put(`${path}/987654`, { ...admin(), body: { name: 'x' } })).status, 404);
        assert.equal((await s.api.put(`${path}/${first.id}`, { ...admin(), body: {} })).status, 400, 'an empty update is refused');
      });
    });
  }

  test('a skill and an app definition may share a key; the skill list holds skills only', async () => {
    await post('/api/xapps', { key: 'shared_key', name: 'App' });
    const skill = await post('/api/skills', { key: 'shared_key', name: 'Skill', output_kind: 'table', prompt_template: 'Do {{message}}' });
    assert.equal(skill.output_kind, 'table');
    assert.equal(skill.prompt_template, 'Do {{message}}');
    const skills = (await s.api.get('/api/skills', admin())).body.data;
    assert.ok(skills.every((d: { object_kind: string }) => d.object_kind === 'skill'));
    assert.equal((await s.api.get(`/api/xapps/${skill.id}`, admin())).status, 404, 'a skill id is not an app definition');
  });

  test('a skill key that specialists or actions use cannot be renamed (409); an unused one can', async () => {
    const used = await post('/api/skills', { key: 'used_skill', name: 'Used' });
    await post('/api/specialists', { key: 'uses_it', name: 'User of skill', allowed_skills: ['used_skill'] });
    const res = await s.api.put(`/api/skills/${used.id}`, { ...admin(), body: { key: 'used_skill_2' } });
    assert.equal(res.status, 409);
    assert.equal(res.body.error, 'workbench.definition_in_use');
    const free = await post('/api/skills', { key: 'free_skill', name: 'Free' });
    assert.equal((await put(`/api/skills/${free.id}`, { key: 'free_skill_2' })).key, 'free_skill_2');

    const app = await post('/api/xapps', { key: 'launch_app', name: 'Launch' });
    await post('/api/actions', { key: 'open_launch', name: 'Open', kind: 'xapp', xapp_key: 'launch_app' });
    assert.equal((await s.api.put(`/api/xapps/${app.id}`, { ...admin(), body: { key: 'launch_app_2' } })).status, 409);
  });

  describe('/api/actions', () => {
    test('create each kind; targets must exist and match the kind', async () => {
      const skillAction = await post('/api/actions', { key: 'extract_invoices', name: 'Extract invoices', kind: 'skill', skill_key: 'batch_extraction', config_json: { fields: ['number', 'amount'] } });
      assert.equal(skillAction.kind, 'skill');
      assert.equal(skillAction.skill_key, 'batch_extraction');
      assert.equal(skillAction.xapp_key, null);
      assert.equal(skillAction.config_json, '{"fields":["number","amount"]}');
      assert.equal(skillAction.state, 'active');

      const prompt = await post('/api/actions', { key: 'weekly_plan', name: 'Plan my week', kind: 'prompt', prompt: 'Plan my week.', skill_key: 'batch_extraction' });
      assert.equal(prompt.skill_key, null, 'a prompt action keeps no skill target');

      for (const body of [
        { key: 'a1', name: 'x', kind: 'skill' },
        { key: 'a1', name: 'x', kind: 'skill', skill_key: 'no_such_skill' },
        { key: 'a1', name: 'x', kind: 'xapp' },
        { key: 'a1', name: 'x', kind: 'xapp', xapp_key: 'no_such_app' },
        { key: 'a1', name: 'x', kind: 'prompt' },
        { key: 'a1', name: 'x', kind: 'macro', prompt: 'x' },
        { key: 'a1', name: 'x', kind: 'prompt', prompt: 'x', config_json: 'nope' },
      ]) {
        const res = await s.api.post('/api/actions', { ...admin(), body });
        assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.text}`);
      }
      assert.equal((await s.api.post('/api/actions', { ...admin(), body: { key: 'weekly_plan', name: 'Again', kind: 'prompt', prompt: 'x' } })).status, 409);
    });

    test('read list and one, filter by kind, update switches kind and clears the old target', async () => {
      const action = await post('/api/actions', { key: 'review_nda', name: 'Review an NDA', kind: 'skill', skill_key: 'contract_review' });
      const list = await s.api.get('/api/actions?kind=skill', { token: employee.token });
      assert.equal(list.status, 200);
      assert.ok(list.body.data.some((a: { id: number }) => a.id === action.id));
      assert.ok(list.body.data.every((a: { kind: string }) => a.kind === 'skill'));
      assert.deepEqual((await s.api.get(`/api/actions/${action.id}`, { token: employee.token })).body.data, action);

      const switched = await put(`/api/actions/${action.id}`, { kind: 'prompt', prompt: 'Review this NDA.' });
      assert.equal(switched.kind, 'prompt');
      assert.equal(switched.skill_key, null);
      assert.equal((await s.api.put(`/api/actions/${action.id}`, { ...admin(), body: { kind: 'skill' } })).status, 400);
      assert.equal((await s.api.put(`/api/actions/${action.id}`, { ...admin(), body: { key: 'extract_invoices' } })).status, 409);
    });

    test('401, 403 and 404', async () => {
      assert.equal((await s.api.get('/api/actions')).status, 401);
      assert.equal((await s.api.post('/api/actions', { token: employee.token, body: { key: 'k', name: 'x', kind: 'prompt', prompt: 'p' } })).status, 403);
      assert.equal((await s.api.get('/api/actions/999999', { token: employee.token })).status, 404);
      assert.equal((await s.api.put('/api/actions/999999', { ...admin(), body: { name: 'x' } })).status, 404);
      const [first] = (await s.api.get('/api/actions', admin())).body.data;
      assert.equal((await s.api.put(`/api/actions/${first.id}`, { ...admin(), body: {} })).status, 400);
    });
  });
});
