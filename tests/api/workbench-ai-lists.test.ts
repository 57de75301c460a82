// The workbench lists (tasks, notes, projects) and the admin lists of chat routes, specialists, skills and apps search and page
// on the server (q, page, size), keep their order, and answer the whole list when no paging is asked for.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import type { FakeModel } from '../support/fake-model.js';
import { chatOk, useFakeModel } from './workbench.fixtures.js';

type Row = { id: number; title?: string; name?: string; key?: string; pinned?: boolean };

describe('workbench and AI admin lists: search and paging', () => {
  let s: TestServer;
  let fake: FakeModel;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };

  before(async () => {
    s = await startTestServer();
    fake = await useFakeModel(s);
    alice = await s.user();
    bob = await s.user();
  });
  after(async () => {
    await s.close();
    await fake.close();
  });

  const list = async (path: string, token: string): Promise<Row[]> => {
    const res = await s.api.get(path, { token });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return res.body.data as Row[];
  };
  const join = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

  /** Pages of two, read one after the other, give the whole list in its order; past the end is empty. */
  async function assertPagesCover(path: string, token: string): Promise<Row[]> {
    const whole = await list(path, token);
    assert.ok(whole.length >= 3, `${path} needs three rows for this check`);
    const pages: Row[] = [];
    for (let page = 1; page <= Math.ceil(whole.length / 2); page++) {
      const rows = await list(join(path, `page=${page}&size=2`), token);
      assert.ok(rows.length <= 2);
      pages.push(...rows);
    }
    assert.deepEqual(pages.map((r) => r.id), whole.map((r) => r.id));
    assert.deepEqual(await list(join(path, `page=${Math.ceil(whole.length / 2) + 1}&size=2`), token), []);
    assert.equal((await list(join(path, 'size=1'), token))[0]!.id, whole[0]!.id, 'size alone starts at page 1');
    return whole;
  }

  async function assertBadPagingIs400(path: string, token: string) {
    for (const query of ['page=0', 'size=0', 'size=501', 'page=x', `q=${'x'.repeat(201)}`]) {
      const res = await s.api.get(join(path, query), { token });
      assert.equal(res.status, 400, `${path} ${query}: ${res.text}`);
      assert.equal(res.body.error, 'validation_failed');
    }
  }

  test('tasks: pinned first, then the most recently active; q searches titles; pages of the caller only', async () => {
    const titles = ['季度销售报告', '客户拜访计划', '季度复盘', 'Weekly 50% check'];
    const ids: number[] = [];
    for (const title of titles) {
      const { taskId } = await chatOk(s, alice.token, { message: `开始：${title}` });
      assert.equal((await s.api.put(`/api/worker/my-tasks/${taskId}`, { token: alice.token, body: { title } })).status, 200);
      ids.push(taskId);
    }
    await chatOk(s, bob.token, { message: '季度 for bob' });
    assert.equal((await s.api.put(`/api/worker/my-tasks/${ids[0]}`, { token: alice.token, body: { pinned: true } })).status, 200);

    const whole = await assertPagesCover('/api/worker/my-tasks', alice.token);
    assert.equal(whole.length, 4);
    assert.equal(whole[0]!.id, ids[0], 'the pinned task leads');
    assert.deepEqual(whole.slice(1).map((t) => t.pinned), [false, false, false]);
    const matched = await list(`/api/worker/my-tasks?q=${encodeURIComponent('季度')}`, alice.token);
    assert.deepEqual(matched.map((t) => t.title), ['季度销售报告', '季度复盘']);
    assert.deepEqual((await list(`/api/worker/my-tasks?q=${encodeURIComponent('50%')}`, alice.token)).map((t) => t.title), ['Weekly 50% check']);
    assert.deepEqual((await list('/api/worker/my-tasks?q=weekly%20_0', alice.token)).length, 0, '_ is literal');
    assert.deepEqual((await list(`/api/worker/my-tasks?q=${encodeURIComponent('季度')}&page=2&size=1`, alice.token)).map((t) => t.title), ['季度复盘']);
    await assertBadPagingIs400('/api/worker/my-tasks', alice.token);
  });

  test('notes: newest first; q searches title and content; paged', async () => {
    for (const [title, content] of [['产品要点', '理财产品风险等级'], ['考试错题', '风险提示的顺序'], ['客户话术', '开场白'], ['周报', '']])
      assert.equal((await s.api.post('/api/notes', { token: alice.token, body: { title, content } })).status, 201);
    const whole = await assertPagesCover('/api/notes', alice.token);
    assert.deepEqual(whole.map((n) => n.title), ['周报', '客户话术', '考试错题', '产品要点']);
    assert.deepEqual((await list(`/api/notes?q=${encodeURIComponent('风险')}&size=1&page=2`, alice.token)).map((n) => n.title), ['产品要点']);
    assert.deepEqual(await list('/api/notes', bob.token), []);
    await assertBadPagingIs400('/api/notes', alice.token);
  });

  test('projects: most recently updated first; q searches names; paged', async () => {
    for (const name of ['华东拓客', '华南拓客', '年终总结'])
      assert.equal((await s.api.post('/api/worker/projects', { token: alice.token, body: { name } })).status, 201);
    const whole = await assertPagesCover('/api/worker/projects', alice.token);
    assert.deepEqual(whole.map((p) => p.name), ['年终总结', '华南拓客', '华东拓客']);
    assert.deepEqual((await list(`/api/worker/projects?q=${encodeURIComponent('拓客')}&size=1`, alice.token)).map((p) => p.name), ['华南拓客']);
    assert.deepEqual(await list('/api/worker/projects', bob.token), []);
    await assertBadPagingIs400('/api/worker/projects', alice.token);
  });

  test('chat routes: by priority, then id; q searches name and model; paged', async () => {
    const route = (name: string, model: string, priority: number) => ({ name, kind: 'chat', provider: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model, priority });
    for (const body of [route('总部 Qwen', 'qwen2.5-72b', 20), route('Backup', 'deepseek-chat', 30), route('本地', 'qwen2.5-7b', 10)])
      assert.equal((await s.api.post('/api/ai/routes', { token: s.adminToken, body })).status, 201);
    const whole = await assertPagesCover('/api/ai/routes?kind=chat', s.adminToken);
    assert.deepEqual(whole.map((r) => r.name), ['本地', '总部 Qwen', 'Backup']);
    assert.deepEqual((await list('/api/ai/routes?kind=chat&q=QWEN', s.adminToken)).map((r) => r.name), ['本地', '总部 Qwen']);
    assert.deepEqual((await list('/api/ai/routes?kind=chat&q=backup', s.adminToken)).map((r) => r.name), ['Backup']);
    assert.equal((await s.api.get('/api/ai/routes?q=x', { token: alice.token })).status, 403);
    await assertBadPagingIs400('/api/ai/routes?kind=chat', s.adminToken);
  });

  test('specialists: by id; q searches key and name; paged within the state asked for', async () => {
    for (const [key, name, state] of [['loan-advisor', '贷款顾问', 'active'], ['fx-desk', '外汇专员', 'inactive'], ['loan-review', '贷后检查', 'active']])
      assert.equal((await s.api.post('/api/specialists', { token: s.adminToken, body: { key, name, state } })).status, 201);
    const whole = await assertPagesCover('/api/specialists?state=all', s.adminToken);
    const ids = whole.map((r) => r.id);
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    assert.deepEqual((await list('/api/specialists?state=all&q=LOAN', s.adminToken)).map((r) => r.key), ['loan-advisor', 'loan-review']);
    assert.deepEqual((await list(`/api/specialists?state=all&q=${encodeURIComponent('外汇')}`, s.adminToken)).map((r) => r.key), ['fx-desk']);
    assert.deepEqual((await list(`/api/specialists?q=${encodeURIComponent('外汇')}`, alice.token)).map((r) => r.key), [], 'inactive ones stay out of the default list');
    assert.equal((await s.api.get('/api/specialists?state=all&q=loan', { token: alice.token })).status, 403);
    await assertBadPagingIs400('/api/specialists?state=all', s.adminToken);
  });

  test('skills and app definitions: by id; q searches key and name; paged; employees page only what they may see', async () => {
    for (const [path, extra] of [['/api/skills', { output_kind: 'table', prompt_template: 'Do {{message}}' }], ['/api/xapps', {}]] as const) {
      for (const [key, name, exposed] of [['quote_table', '报价表', true], ['fx_summary', '外汇摘要', false], ['quote_letter', '报价函', true]] as const)
        assert.equal((await s.api.post(path, { token: s.adminToken, body: { key, name, exposed_to_user: exposed, ...extra } })).status, 201);
      const whole = await assertPagesCover(path, s.adminToken);
      const ids = whole.map((r) => r.id);
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
      assert.deepEqual((await list(`${path}?q=QUOTE`, s.adminToken)).map((r) => r.key), ['quote_table', 'quote_letter']);
      assert.deepEqual((await list(`${path}?q=${encodeURIComponent('外汇')}`, s.adminToken)).map((r) => r.key), ['fx_summary']);
      assert.deepEqual((await list(`${path}?q=${encodeURIComponent('外汇')}`, alice.token)).map((r) => r.key), [], 'not exposed: not listed for employees');
      assert.deepEqual((await list(`${path}?q=quote&page=2&size=1`, alice.token)).map((r) => r.key), ['quote_letter']);
      await assertBadPagingIs400(path, s.adminToken);
    }
  });

  test('an unchanged built-in is found by the name the app shows in any language; once renamed, by its new name only', async () => {
    const keys = async (path: string, q: string) => (await list(`${path}${path.includes('?') ? '&' : '?'}q=${encodeURIComponent(q)}`, s.adminToken)).map((r) => r.key);
    assert.deepEqual(await keys('/api/skills', '批量'), ['batch_extraction']);
    assert.deepEqual(await keys('/api/skills', 'batch EXTRACTION'), ['batch_extraction'], 'the stored English name as before');
    assert.deepEqual(await keys('/api/skills', '通话'), ['call_review', 'call_analysis']);
    assert.deepEqual(await keys('/api/specialists?state=system', '通用助手'), ['general_assistant']);
    assert.deepEqual(await keys('/api/xapps', '批量'), [], 'a search of apps does not bring skills');

    const skill = (await list('/api/skills?q=batch_extraction', s.adminToken))[0]!;
    assert.equal((await s.api.put(`/api/skills/${skill.id}`, { token: s.adminToken, body: { name: '字段抽取' } })).status, 200);
    assert.deepEqual(await keys('/api/skills', '批量'), [], 'renamed: the shipped names no longer apply');
    assert.deepEqual(await keys('/api/skills', '抽取'), ['batch_extraction']);
    assert.deepEqual(await keys('/api/skills', 'Batch extraction'), []);
  });
});
