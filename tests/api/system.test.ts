import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

describe('system administration', () => {
  let s: TestServer;
  let employee: { id: number; token: string };
  before(async () => {
    s = await startTestServer();
    employee = await s.user();
  });
  after(() => s.close());
  const admin = () => ({ token: s.adminToken });

  describe('users', () => {
    test('create returns the user without secrets; duplicate username is 409', async () => {
      const res = await s.api.post('/api/system/users', { ...admin(), body: { username: 'alice', password: 'alice-pass', full_name: 'Alice Li', role: 'employee' } });
      assert.equal(res.status, 201);
      assert.equal(res.body.data.username, 'alice');
      assert.equal(res.body.data.full_name, 'Alice Li');
      assert.equal(res.body.data.role, 'employee');
      assert.equal(res.body.data.status, 'active');
      assert.equal(Number.isInteger(res.body.data.id), true);
      assert.equal('password' in res.body.data || 'password_hash' in res.body.data, false);
      const dup = await s.api.post('/api/system/users', { ...admin(), body: { username: 'alice', password: 'other-pass', full_name: 'A2', role: 'admin' } });
      assert.equal(dup.status, 409);
      assert.equal(dup.body.error, 'conflict');
      const read = await s.api.get(`/api/system/users/${res.body.data.id}`, admin());
      assert.equal(read.body.data.username, 'alice');
      assert.ok((await s.api.post('/api/auth/login', { body: { username: 'alice', password: 'alice-pass' } })).status === 200);
    });

    test('bad user bodies are 400 and create nothing', async () => {
      const before = (await s.api.get('/api/system/users', admin())).body.data.length;
      for (const body of [{}, { username: 'bob' }, { username: 'bob', password: 'bob-pass', role: 'root' }, { username: '', password: 'bob-pass' }, { username: 'bob', password: 12345678 }]) {
        const res = await s.api.post('/api/system/users', { ...admin(), body });
        assert.equal(res.status, 400, JSON.stringify(body));
      }
      assert.equal((await s.api.get('/api/system/users', admin())).body.data.length, before);
    });

    test('role change, disable and re-enable, unknown user 404', async () => {
      const u = await s.user();
      const promoted = await s.api.put(`/api/system/users/${u.id}`, { ...admin(), body: { role: 'admin' } });
      assert.equal(promoted.body.data.role, 'admin');
      const disabled = await s.api.put(`/api/system/users/${u.id}`, { ...admin(), body: { status: 'disabled' } });
      assert.equal(disabled.body.data.status, 'disabled');
      const listed = await s.api.get('/api/system/users?status=disabled', admin());
      assert.ok(listed.body.data.some((x: { id: number }) => x.id === u.id));
      assert.equal((await s.api.put(`/api/system/users/${u.id}`, { ...admin(), body: { status: 'active' } })).body.data.status, 'active');
      const inactive = await s.api.put(`/api/system/users/${u.id}`, { ...admin(), body: { status: 'inactive' } });
      assert.equal(inactive.body.data.status, 'disabled', '"inactive" disables too');
      assert.equal((await s.api.post('/api/auth/login', { body: { username: u.username, password: 'secret-pass' } })).status, 403);
      assert.equal((await s.api.put(`/api/system/users/${u.id}`, { ...admin(), body: { status: 'asleep' } })).status, 400);
      assert.equal((await s.api.put('/api/system/users/99999', { ...admin(), body: { status: 'active' } })).status, 404);
      assert.equal((await s.api.get('/api/system/users/99999', admin())).status, 404);
    });

    test('the user list filters by name and pages on the server', async () => {
      const tag = `pager${Date.now().toString(36)}`;
      const made = [];
      for (const name of ['Ann', 'Bob', 'Cai']) made.push(await s.user('employee', { full_name: `${name} ${tag.toUpperCase()}` }));
      const byName = await s.api.get(`/api/system/users?q=${tag}`, admin());
      assert.deepEqual(byName.body.data.map((u: { id: number }) => u.id), made.map((u) => u.id), 'full name matched case-insensitively');
      const byUsername = await s.api.get(`/api/system/users?q=${made[1]!.username}`, admin());
      assert.deepEqual(byUsername.body.data.map((u: { id: number }) => u.id), [made[1]!.id]);
      const second = await s.api.get(`/api/system/users?q=${tag}&page=2&size=2`, admin());
      assert.deepEqual(second.body.data.map((u: { id: number }) => u.id), [made[2]!.id]);
      assert.equal((await s.api.get('/api/system/users?q=%25', admin())).body.data.length, 0, '% is matched literally');
      for (const bad of ['page=0', 'size=501', 'page=x']) assert.equal((await s.api.get(`/api/system/users?${bad}`, admin())).status, 400, bad);
    });

    test('the last active admin cannot be disabled or demoted', async () => {
      const admins = (await s.api.get('/api/system/users?role=admin&status=active', admin())).body.data;
      for (const a of admins.filter((x: { id: number }) => x.id !== 1)) {
        await s.api.put(`/api/system/users/${a.id}`, { ...admin(), body: { role: 'employee' } });
      }
      const res = await s.api.put('/api/system/users/1', { ...admin(), body: { status: 'disabled' } });
      assert.equal(res.status, 409);
      assert.equal((await s.api.get('/api/auth/me', admin())).status, 200);
    });

    test('employees get 403 and anonymous callers 401 on every admin endpoint', async () => {
      for (const path of ['/api/system/users', '/api/system/config', '/api/system/departments', '/api/system/positions']) {
        assert.equal((await s.api.get(path, { token: employee.token })).status, 403, path);
        assert.equal((await s.api.get(path)).status, 401, path);
      }
      assert.equal((await s.api.post('/api/system/users', { token: employee.token, body: { username: 'x', password: 'xxxxxx' } })).status, 403);
    });
  });

  describe('departments', () => {
    test('a rename is copied into every member’s department', async () => {
      const dept = await s.api.post('/api/system/departments', { ...admin(), body: { name: 'Branch North' } });
      assert.equal(dept.status, 201);
      const id = dept.body.data.id;
      const a = await s.user('employee', { department: 'Branch North' });
      const b = await s.user('employee', { department_id: id });
      const other = await s.user('employee', { department: 'Branch South' });
      assert.equal((await s.api.get(`/api/system/departments/${id}`, admin())).body.data.user_count, 2);
      const renamed = await s.api.put(`/api/system/departments/${id}`, { ...admin(), body: { name: 'Branch North-East' } });
      assert.equal(renamed.body.data.name, 'Branch North-East');
      for (const u of [a, b]) {
        const me = await s.api.get('/api/auth/me', { token: u.token });
        assert.equal(me.body.data.department, 'Branch North-East');
        assert.equal(me.body.data.department_id, id);
      }
      assert.equal((await s.api.get('/api/auth/me', { token: other.token })).body.data.department, 'Branch South');
    });

    test('duplicate names 409, unknown 404, non-empty delete 409, empty delete works', async () => {
      await s.api.post('/api/system/departments', { ...admin(), body: { name: 'HQ' } });
      assert.equal((await s.api.post('/api/system/departments', { ...admin(), body: { name: 'HQ' } })).status, 409);
      assert.equal((await s.api.post('/api/system/departments', { ...admin(), body: { name: '' } })).status, 400);
      assert.equal((await s.api.put('/api/system/departments/9999', { ...admin(), body: { name: 'X' } })).status, 404);
      const withUser = (await s.api.get('/api/system/departments', admin())).body.data.find((d: { name: string }) => d.name === 'Branch North-East');
      assert.equal((await s.api.delete(`/api/system/departments/${withUser.id}`, admin())).status, 409);
      const empty = await s.api.post('/api/system/departments', { ...admin(), body: { name: 'Temp' } });
      assert.equal((await s.api.delete(`/api/system/departments/${empty.body.data.id}`, admin())).status, 200);
      assert.equal((await s.api.get(`/api/system/departments/${empty.body.data.id}`, admin())).status, 404);
    });
  });

  describe('positions', () => {
    test('knowledge items keep an explicit is_mandatory false; omitted means true; update keeps it', async () => {
      const res = await s.api.post('/api/system/positions', {
        ...admin(),
        body: { name: 'Wealth advisor', description: 'Advises clients', knowledge: [{ title: 'Fund basics', is_mandatory: false }, { title: 'Compliance' }] },
      });
      assert.equal(res.status, 201);
      const [fund, compliance] = res.body.data.knowledge;
      assert.equal(fund.is_mandatory, false);
      assert.equal(compliance.is_mandatory, true);
      const id = res.body.data.id;
      const renamed = await s.api.put(`/api/system/positions/${id}/knowledge/${fund.id}`, { ...admin(), body: { title: 'Fund basics 2' } });
      assert.equal(renamed.body.data.is_mandatory, false);
      const flipped = await s.api.put(`/api/system/positions/${id}/knowledge/${compliance.id}`, { ...admin(), body: { is_mandatory: false } });
      assert.equal(flipped.body.data.is_mandatory, false);
      const added = await s.api.post(`/api/system/positions/${id}/knowledge`, { ...admin(), body: { title: 'Products', is_mandatory: false } });
      assert.equal(added.status, 201);
      assert.equal(added.body.data.is_mandatory, false);
      const read = await s.api.get(`/api/system/positions/${id}`, admin());
      assert.deepEqual(read.body.data.knowledge.map((k: { is_mandatory: boolean }) => k.is_mandatory), [false, false, false]);
      assert.equal((await s.api.post(`/api/system/positions/${id}/knowledge`, { ...admin(), body: { title: 'x', is_mandatory: 'no' } })).status, 400);
      assert.equal((await s.api.get(`/api/system/positions/${id}/knowledge/99999`, admin())).status, 404);
    });

    test('editing a position with its knowledge list keeps each item\'s is_mandatory unless the item sets it', async () => {
      const created = await s.api.post('/api/system/positions', {
        ...admin(),
        body: { name: 'Branch manager', knowledge: [{ title: 'Lending', is_mandatory: false }, { title: 'Risk', is_mandatory: false }, { title: 'Old item' }] },
      });
      assert.equal(created.status, 201, created.text);
      const [lending, risk] = created.body.data.knowledge;
      const put = await s.api.put(`/api/system/positions/${created.body.data.id}`, {
        ...admin(),
        body: { knowledge: [{ id: lending.id, title: 'Lending 2' }, { title: 'Risk' }, { title: 'New item' }, { title: 'Mandatory now', is_mandatory: true }] },
      });
      assert.equal(put.status, 200, put.text);
      const items = put.body.data.knowledge.map((k: { id: number; title: string; is_mandatory: boolean }) => [k.title, k.is_mandatory, k.id === lending.id || k.id === risk.id]);
      assert.deepEqual(items, [['Lending 2', false, true], ['Risk', false, true], ['New item', true, false], ['Mandatory now', true, false]], 'by id, by title, new ones true; the item left out is gone');
      const flip = await s.api.put(`/api/system/positions/${created.body.data.id}`, { ...admin(), body: { knowledge: [{ id: lending.id, title: 'Lending 2', is_mandatory: true }] } });
      assert.deepEqual(flip.body.data.knowledge.map((k: { is_mandatory: boolean }) => k.is_mandatory), [true]);
      const foreign = await s.api.put(`/api/system/positions/${created.body.data.id}`, { ...admin(), body: { knowledge: [{ id: 987654, title: 'x' }] } });
      assert.equal(foreign.status, 400, foreign.text);
    });

    test('users can hold a position; deleting it clears theirs', async () => {
      const pos = await s.api.post('/api/system/positions', { ...admin(), body: { name: 'Teller' } });
      const u = await s.user('employee', { position_id: pos.body.data.id });
      assert.equal((await s.api.get('/api/auth/me', { token: u.token })).body.data.position_id, pos.body.data.id);
      assert.equal((await s.api.post('/api/system/users', { ...admin(), body: { username: 'nopos', password: 'secret-pass', position_id: 99999 } })).status, 400);
      assert.equal((await s.api.delete(`/api/system/positions/${pos.body.data.id}`, admin())).status, 200);
      assert.equal((await s.api.get('/api/auth/me', { token: u.token })).body.data.position_id, null);
      assert.equal((await s.api.post('/api/system/positions', { ...admin(), body: { name: 'Wealth advisor' } })).status, 409);
    });
  });

  describe('config', () => {
    test('llm_api_key is stored but returned masked; a masked value sent back keeps it', async () => {
      const secret = 'sk-test-1234567890abcdef';
      const put = await s.api.put('/api/system/config', {
        ...admin(),
        body: { configs: { llm_base_url: 'http://127.0.0.1:9/v1', llm_api_key: secret, llm_model: 'qwen2.5', company_intro_content: '<h1>Welcome</h1>' } },
      });
      assert.equal(put.status, 200);
      assert.ok(!put.text.includes(secret));
      const get = await s.api.get('/api/system/config', admin());
      assert.ok(!get.text.includes(secret));
      assert.equal(get.body.data.llm_api_key, '****cdef');
      assert.equal(get.body.data.llm_model, 'qwen2.5');
      assert.equal(get.body.data.jwt_expire_minutes, 480);
      await s.api.put('/api/system/config', { ...admin(), body: { configs: { llm_api_key: '****cdef' } } });
      const stored = await s.server.db('system_config').where({ key: 'llm_api_key' }).first('value');
      assert.equal(JSON.parse(stored.value), secret);
      const company = await s.api.get('/api/company-train', { token: employee.token });
      assert.equal(company.body.data.content, '<h1>Welcome</h1>');
      assert.deepEqual(company.body.data.medias, []);
    });

    test('invalid values and unknown names are 400 and change nothing', async () => {
      const cases: Record<string, unknown>[] = [
        { llm_base_url: 'not a url' },
        { llm_base_url: 'ftp://example.com' },
        { jwt_expire_minutes: 0 },
        { jwt_expire_minutes: -5 },
        { jwt_expire_minutes: 1.5 },
        { jwt_expire_minutes: 'abc' },
        { no_such_parameter: 1 },
        { constructor: 1 },
        { toString: 'x' },
        { hasOwnProperty: 1 },
        { llm_model: 'ok', jwt_expire_minutes: 0 },
      ];
      for (const configs of cases) {
        const res = await s.api.put('/api/system/config', { ...admin(), body: { configs } });
        assert.equal(res.status, 400, JSON.stringify(configs));
        assert.equal(res.body.error, 'validation_failed');
      }
      assert.equal((await s.api.put('/api/system/config', { ...admin(), body: { llm_model: 'x' } })).status, 400);
      const get = await s.api.get('/api/system/config', admin());
      assert.equal(get.body.data.llm_model, 'qwen2.5');
      assert.equal(get.body.data.jwt_expire_minutes, 480);
      assert.equal((await s.api.put('/api/system/config', { ...admin(), body: { configs: { jwt_expire_minutes: '120' } } })).body.data.jwt_expire_minutes, 120);
    });
  });
});
