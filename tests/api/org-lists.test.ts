// GET /api/system/departments and /positions page and filter on the server (the admin screens never load all).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

describe('department and position lists: search and paging', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
    for (const name of ['华东销售部', '华南销售部', '培训部'])
      assert.equal((await ts.api.post('/api/system/departments', { token: ts.adminToken, body: { name } })).status, 201);
    for (const name of ['客户经理', '柜员', '大堂经理'])
      assert.equal((await ts.api.post('/api/system/positions', { token: ts.adminToken, body: { name, knowledge: [{ title: `${name}必读` }] } })).status, 201);
  });
  after(() => ts.close());

  const list = async (path: string, query: string) => {
    const res = await ts.api.get(`/api/system/${path}?${query}`, { token: ts.adminToken });
    assert.equal(res.status, 200, res.text);
    return res.body.data as { name: string; knowledge?: { title: string }[] }[];
  };

  test('q keeps the names that contain it; page and size cut the list', async () => {
    assert.deepEqual((await list('departments', 'q=销售')).map((d) => d.name).sort(), ['华东销售部', '华南销售部']);
    assert.equal((await list('departments', '')).length, 3);
    const first = await list('departments', 'page=1&size=2');
    const second = await list('departments', 'page=2&size=2');
    assert.equal(first.length, 2);
    assert.equal(second.length, 1);
    assert.ok(!first.some((d) => d.name === second[0]!.name));
  });

  test('positions come with their own knowledge items on every page', async () => {
    const managers = await list('positions', 'q=经理&size=1&page=2');
    assert.equal(managers.length, 1);
    assert.deepEqual(managers[0]!.knowledge!.map((k) => k.title), [`${managers[0]!.name}必读`]);
    assert.equal((await list('positions', 'q=nothing-like-this')).length, 0);
  });

  test('bad paging is a 400', async () => {
    for (const query of ['page=0', 'size=501', 'size=x']) {
      const res = await ts.api.get(`/api/system/positions?${query}`, { token: ts.adminToken });
      assert.equal(res.status, 400, query);
    }
  });
});
