import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import type { FakeModel } from '../support/fake-model.js';
import { listTasksOfOwners } from '../../server/workbench/tasks.repository.js';
import { chatOk, lastSystemPrompt, useFakeModel, workerChat } from './workbench.fixtures.js';

const CLERK_RULE = '# Invoice clerk\nYou check supplier invoices against purchase orders.';

describe('workbench tasks through /api/worker/chat', () => {
  let s: TestServer;
  let fake: FakeModel;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  const admin = () => ({ token: s.adminToken });
  const tasksOf = async (token: string) => (await s.api.get('/api/worker/my-tasks', { token })).body.data as { id: number; title: string; pinned: boolean; updated_at: string; specialist_key: string }[];

  before(async () => {
    s = await startTestServer();
    alice = await s.user();
    bob = await s.user();
    for (const body of [
      { key: 'invoice_clerk', name: 'Invoice clerk', rule_file_markdown: CLERK_RULE, allowed_skills: ['contract_review', 'batch_extraction'] },
      { key: 'dormant_clerk', name: 'Dormant', state: 'inactive', rule_file_markdown: 'DORMANT RULE' },
      { key: 'summariser', name: 'Summariser', rule_file_markdown: 'You summarise.', allowed_skills: ['document_summary'] },
    ]) {
      assert.equal((await s.api.post('/api/specialists', { ...admin(), body })).status, 201);
    }
  });
  after(async () => {
    await s.close();
    await fake?.close();
  });
  beforeEach(() => fake?.behave({}));

  test('without a usable model route: 500 no_model_route in the envelope, and no task is left behind', async () => {
    const reply = await workerChat(s, alice.token, { message: 'Hello there.' });
    assert.equal(reply.status, 500);
    assert.match(reply.contentType, /application\/json/);
    assert.equal(reply.envelope.error, 'no_model_route');
    assert.equal(reply.envelope.data, null);
    assert.deepEqual(await tasksOf(alice.token), []);
  });

  test('the first message creates the task: SSE framing, title = first sentence, chosen specialist', async () => {
    fake = await useFakeModel(s, { chunks: ['Hello', ' from', ' the fake model.'] });
    const reply = await chatOk(s, alice.token, { message: '  Check the March invoices. Flag anything odd!  ', specialist_key: 'invoice_clerk' });
    assert.deepEqual(reply.events[0], { type: 'task', task_id: reply.taskId, run_id: reply.runId, specialist_key: 'invoice_clerk' });
    assert.deepEqual(
      reply.events.slice(1).map((e) => e.type),
      ['text', 'text', 'text', 'done'],
    );
    assert.equal(reply.text, 'Hello from the fake model.');

    const request = fake.requests.at(-1)!.body;
    assert.equal(request.model, 'fake-model');
    assert.equal(request.stream, true);
    const system = lastSystemPrompt(fake);
    assert.ok(system.includes(CLERK_RULE), 'the job description is in the system instructions');
    assert.ok(system.indexOf('contract_review') >= 0 && system.indexOf('contract_review') < system.indexOf('batch_extraction'), 'allowed skills in priority order');
    assert.ok(!system.includes('document_summary'), 'only the allowed skills are offered');
    assert.deepEqual(request.messages!.at(-1), { role: 'user', content: 'Check the March invoices. Flag anything odd!' });

    const task = (await s.api.get(`/api/worker/my-tasks/${reply.taskId}`, { token: alice.token })).body.data;
    assert.equal(task.title, 'Check the March invoices.');
    assert.equal(task.specialist_key, 'invoice_clerk');
    assert.equal(task.user_id, alice.id);
    assert.strictEqual(task.pinned, false);
    assert.equal(task.project_id, null);
    assert.equal(task.owner, null);
  });

  test('long first sentences are cut; CJK sentence ends count', async () => {
    const long = await chatOk(s, alice.token, { message: `${'word '.repeat(60)}end. Second sentence.` });
    const title = (await s.api.get(`/api/worker/my-tasks/${long.taskId}`, { token: alice.token })).body.data.title as string;
    assert.ok(title.length <= 100 && title.endsWith('…'), title);
    const cjk = await chatOk(s, alice.token, { message: '请总结这份合同。然后列出风险。' });
    assert.equal((await s.api.get(`/api/worker/my-tasks/${cjk.taskId}`, { token: alice.token })).body.data.title, '请总结这份合同。');
  });

  test("with task_id the task's specialist wins over specialist_key, and earlier turns are sent again", async () => {
    const first = await chatOk(s, alice.token, { message: 'Start with supplier A.', specialist_key: 'invoice_clerk' });
    fake.behave({ chunks: ['Second answer.'] });
    const second = await chatOk(s, alice.token, { message: 'Now supplier B.', task_id: first.taskId, specialist_key: 'summariser' });
    assert.equal(second.taskId, first.taskId);
    assert.equal(second.events[0]!.specialist_key, 'invoice_clerk');
    assert.ok(lastSystemPrompt(fake).includes(CLERK_RULE));
    const messages = fake.requests.at(-1)!.body.messages!;
    assert.deepEqual(
      messages.slice(1).map((m) => [m.role, m.content]),
      [
        ['user', 'Start with supplier A.'],
        ['assistant', 'Hello from the fake model.'],
        ['user', 'Now supplier B.'],
      ],
    );
  });

  test('an unknown or inactive specialist falls back to the general assistant without an error', async () => {
    for (const specialist_key of ['no_such_specialist', 'dormant_clerk', '', null, undefined]) {
      const reply = await chatOk(s, alice.token, { message: 'Who answers?', specialist_key });
      assert.equal(reply.events[0]!.specialist_key, 'general_assistant');
      const system = lastSystemPrompt(fake);
      assert.match(system, /General assistant/);
      assert.ok(!system.includes('DORMANT RULE'));
      assert.equal((await s.api.get(`/api/worker/my-tasks/${reply.taskId}`, { token: alice.token })).body.data.specialist_key, 'general_assistant');
    }
  });

  test('each exchange is a run with status, timings, route and the specialist; model calls are logged with it', async () => {
    const reply = await chatOk(s, alice.token, { message: 'Log me.', specialist_key: 'invoice_clerk' });
    const runs = await s.api.get(`/api/worker/my-tasks/${reply.taskId}/runs`, { token: alice.token });
    assert.equal(runs.status, 200);
    assert.equal(runs.body.data.length, 1);
    const [run] = runs.body.data;
    assert.equal(run.id, reply.runId);
    assert.equal(run.task_id, reply.taskId);
    assert.equal(run.kind, 'chat');
    assert.equal(run.status, 'succeeded');
    assert.equal(run.specialist_key, 'invoice_clerk');
    assert.deepEqual(run.input, { message: 'Log me.' });
    assert.equal(run.output, 'Hello from the fake model.');
    assert.equal(run.error, null);
    assert.equal(run.route.model, 'fake-model');
    assert.ok(run.started_at <= run.finished_at);
    assert.deepEqual((await s.api.get(`/api/worker/my-tasks/${reply.taskId}/runs/${run.id}`, { token: alice.token })).body.data, run);

    const calls = await s.api.get('/api/ai/calls?specialist_key=invoice_clerk&size=200', admin());
    assert.equal(calls.status, 200, calls.text);
    const logged = calls.body.data.items.find((c: { task_id: number }) => c.task_id === reply.taskId);
    assert.ok(logged, 'the model call is logged with the task');
    assert.equal(logged.specialist_key, 'invoice_clerk');
    assert.equal(logged.user_id, alice.id);
  });

  test('batch_extraction stores a table artifact, read back by list and by id', async () => {
    fake.behave({ chunks: ['Here is the table:\n```json\n{"columns": ["document", "number", "amount"],', ' "rows": [["a.txt", "INV-1", 120], {"document": "b.txt", "number": "INV-2", "amount": 80}]}\n```'] });
    const reply = await chatOk(s, alice.token, {
      message: 'Extract the invoice numbers.',
      specialist_key: 'invoice_clerk',
      skill_key: 'batch_extraction',
      documents: [
        { name: 'a.txt', content: 'Invoice INV-1 total 120' },
        { name: 'b.txt', content: 'Invoice INV-2 total 80' },
      ],
      inputs: { fields: ['number', 'amount'] },
    });
    const artifactEvent = reply.events.find((e) => e.type === 'artifact');
    assert.ok(artifactEvent, JSON.stringify(reply.events));
    const artifact = artifactEvent.artifact;
    assert.equal(artifact.kind, 'table');
    assert.equal(artifact.skill_key, 'batch_extraction');
    assert.deepEqual(artifact.content, { columns: ['document', 'number', 'amount'], rows: [['a.txt', 'INV-1', 120], ['b.txt', 'INV-2', 80]] });

    const sent = fake.requests.at(-1)!.body.messages!;
    assert.match(sent[0]!.content, /run the skill batch_extraction/);
    const prompt = sent.at(-1)!.content;
    for (const part of ['Extract the invoice numbers.', '- number', '- amount', 'a.txt', 'Invoice INV-2 total 80', '"columns"']) assert.ok(prompt.includes(part), `prompt holds ${part}`);

    const list = await s.api.get(`/api/worker/my-tasks/${reply.taskId}/artifacts`, { token: alice.token });
    assert.deepEqual(list.body.data, [artifact]);
    assert.deepEqual((await s.api.get(`/api/worker/my-tasks/${reply.taskId}/artifacts/${artifact.id}`, { token: alice.token })).body.data, artifact);
    const [run] = (await s.api.get(`/api/worker/my-tasks/${reply.taskId}/runs`, { token: alice.token })).body.data;
    assert.equal(run.kind, 'skill');
    assert.equal(run.skill_key, 'batch_extraction');
    assert.equal(run.status, 'succeeded');
    assert.deepEqual(run.input.inputs, { fields: ['number', 'amount'] });
  });

  test('contract_review stores a markdown report artifact built against the default checklist', async () => {
    fake.behave({ chunks: ['```markdown\n# Contract review\n', '## Payment terms\nRisk: 90 days.\n```'] });
    const reply = await chatOk(s, alice.token, {
      message: 'Review this supply contract.',
      skill_key: 'contract_review',
      documents: [{ name: 'supply.md', content: 'Payment within 90 days. Governed by the laws of Nowhere.' }],
    });
    const artifact = reply.events.find((e) => e.type === 'artifact')!.artifact;
    assert.equal(artifact.kind, 'report');
    assert.equal(artifact.content, '# Contract review\n## Payment terms\nRisk: 90 days.');
    assert.match(artifact.title, /Contract review: supply\.md/);
    const prompt = fake.requests.at(-1)!.body.messages!.at(-1)!.content;
    assert.ok(prompt.includes('- Payment terms') && prompt.includes('Governed by the laws of Nowhere.'));
  });

  test('a skill reply that cannot be parsed fails the run with an error event, not a 500', async () => {
    fake.behave({ chunks: ['I could not find any table, sorry.'] });
    const reply = await workerChat(s, alice.token, { message: 'Extract.', skill_key: 'batch_extraction', documents: [{ name: 'x.txt', content: 'nothing' }] });
    assert.equal(reply.status, 200);
    const last = reply.events.at(-1)!;
    assert.equal(last.type, 'error');
    assert.match(last.message, /not a JSON table/);
    assert.ok(!reply.events.some((e) => e.type === 'done' || e.type === 'artifact'));
    const [run] = (await s.api.get(`/api/worker/my-tasks/${reply.taskId}/runs`, { token: alice.token })).body.data;
    assert.equal(run.status, 'failed');
    assert.match(run.error, /not a JSON table/);
    assert.equal(run.output, 'I could not find any table, sorry.');
    assert.ok(run.finished_at);
    assert.deepEqual((await s.api.get(`/api/worker/my-tasks/${reply.taskId}/artifacts`, { token: alice.token })).body.data, []);
  });

  test('a reply that breaks after it started ends with an error event and a failed run', async () => {
    // The break comes a little after the first chunk, so that chunk surely reaches the server first.
    fake.behave({ chunks: ['Partial ', 'answer'], dropAfterFirst: true, delayMs: 50 });
    const reply = await workerChat(s, alice.token, { message: 'Break please.' });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.events.slice(1, 2), [{ type: 'text', content: 'Partial ' }]);
    assert.equal(reply.events.at(-1)!.type, 'error');
    const [run] = (await s.api.get(`/api/worker/my-tasks/${reply.taskId}/runs`, { token: alice.token })).body.data;
    assert.equal(run.status, 'failed');
    assert.equal(run.output, 'Partial ');
  });

  test('a failure before the first token on an existing task is an envelope error and a failed run', async () => {
    const first = await chatOk(s, alice.token, { message: 'Keep me.' });
    fake.behave({ failStatus: 503 });
    const reply = await workerChat(s, alice.token, { message: 'Fail now.', task_id: first.taskId });
    assert.ok(reply.status >= 500, String(reply.status));
    assert.equal(reply.envelope.data, null);
    assert.ok(reply.envelope.error);
    const runs = (await s.api.get(`/api/worker/my-tasks/${first.taskId}/runs`, { token: alice.token })).body.data;
    assert.deepEqual(
      runs.map((r: { status: string }) => r.status),
      ['succeeded', 'failed'],
    );
  });

  test('skill runs: 400 when the skill is not the specialist’s, is unknown, or has no documents', async () => {
    const notAllowed = await workerChat(s, alice.token, { message: 'Summarise.', specialist_key: 'invoice_clerk', skill_key: 'document_summary', documents: [{ name: 'a', content: 'b' }] });
    assert.equal(notAllowed.status, 400);
    assert.equal(notAllowed.envelope.error, 'workbench.skill_unavailable');
    const unknown = await workerChat(s, alice.token, { message: 'Do it.', skill_key: 'ghost_skill', documents: [{ name: 'a', content: 'b' }] });
    assert.equal(unknown.status, 400);
    const noDocs = await workerChat(s, alice.token, { message: 'Review.', skill_key: 'contract_review' });
    assert.equal(noDocs.status, 400);
    assert.match(noDocs.envelope.message, /document/);
  });

  test('chat input errors: 401, 400 for a bad body, 404 for another user’s task or project', async () => {
    assert.equal((await s.api.post('/api/worker/chat', { body: { message: 'hi' } })).status, 401);
    for (const body of [{}, { message: '   ' }, { message: 'x', task_id: 'one' }, { message: 'x', documents: [] }, { message: 'x', project_id: -1 }]) {
      const reply = await workerChat(s, alice.token, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.envelope.error, 'validation_failed');
    }
    const bobs = await chatOk(s, bob.token, { message: 'Bob private task.' });
    const bobProject = (await s.api.post('/api/worker/projects', { token: bob.token, body: { name: 'Bob project' } })).body.data;
    const before = fake.requests.length;
    assert.equal((await workerChat(s, alice.token, { message: 'Sneak in.', task_id: bobs.taskId })).status, 404);
    assert.equal((await workerChat(s, alice.token, { message: 'Sneak in.', project_id: bobProject.id })).status, 404);
    assert.equal((await workerChat(s, alice.token, { message: 'Missing.', task_id: 999999 })).status, 404);
    assert.equal(fake.requests.length, before, 'no model call for a refused request');
    const bobRuns = (await s.api.get(`/api/worker/my-tasks/${bobs.taskId}/runs`, { token: bob.token })).body.data;
    assert.equal(bobRuns.length, 1);
  });

  describe('my-tasks', () => {
    let carol: { id: number; token: string };
    before(async () => {
      carol = await s.user();
    });

    test('lists only the caller’s tasks, pinned first, then most recently updated', async () => {
      const a = await chatOk(s, carol.token, { message: 'Task A.' });
      const b = await chatOk(s, carol.token, { message: 'Task B.' });
      const c = await chatOk(s, carol.token, { message: 'Task C.' });
      assert.deepEqual((await tasksOf(carol.token)).map((t) => t.id), [c.taskId, b.taskId, a.taskId]);

      const pinned = await s.api.put(`/api/worker/my-tasks/${a.taskId}`, { token: carol.token, body: { pinned: true } });
      assert.equal(pinned.status, 200);
      assert.strictEqual(pinned.body.data.pinned, true);
      await chatOk(s, carol.token, { message: 'More on B.', task_id: b.taskId });
      const list = await tasksOf(carol.token);
      assert.deepEqual(list.map((t) => t.id), [a.taskId, b.taskId, c.taskId]);
      const sorted = [...list].sort((x, y) => Number(y.pinned) - Number(x.pinned) || y.updated_at.localeCompare(x.updated_at));
      assert.deepEqual(sorted, list);

      assert.ok(!(await tasksOf(alice.token)).some((t) => [a.taskId, b.taskId, c.taskId].includes(t.id)));
      assert.equal((await s.api.get('/api/worker/my-tasks')).status, 401);
    });

    test('the owner-set helper returns nothing for an empty owner set, never everything', async () => {
      assert.ok((await tasksOf(carol.token)).length > 0);
      assert.deepEqual(await listTasksOfOwners(s.server.db, []), []);
      const carols = await listTasksOfOwners(s.server.db, [carol.id]);
      assert.ok(carols.length > 0 && carols.every((t) => t.user_id === carol.id));
      const both = await listTasksOfOwners(s.server.db, [carol.id, alice.id]);
      assert.equal(new Set(both.map((t) => t.user_id)).size, 2);
    });

    test('PUT edits title, pinned and project_id; bad bodies are 400, another user’s task or project 404', async () => {
      const task = await chatOk(s, carol.token, { message: 'Editable task.' });
      const path = `/api/worker/my-tasks/${task.taskId}`;
      const project = (await s.api.post('/api/worker/projects', { token: carol.token, body: { name: 'Carol project' } })).body.data;
      const edited = await s.api.put(path, { token: carol.token, body: { title: '  New title  ', project_id: project.id } });
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.body.data.title, 'New title');
      assert.equal(edited.body.data.project_id, project.id);
      assert.equal((await s.api.put(path, { token: carol.token, body: { project_id: null } })).body.data.project_id, null);

      for (const body of [{}, { pinned: 'yes' }, { title: '' }, { project_id: 'x' }, { owner: 5 }]) {
        assert.equal((await s.api.put(path, { token: carol.token, body })).status, 400, JSON.stringify(body));
      }
      const bobProject = (await s.api.post('/api/worker/projects', { token: bob.token, body: { name: 'Not Carol’s' } })).body.data;
      assert.equal((await s.api.put(path, { token: carol.token, body: { project_id: bobProject.id } })).status, 404);
      assert.equal((await s.api.put(path, { token: carol.token, body: { project_id: 999999 } })).status, 404);

      for (const [method, suffix] of [
        ['get', ''],
        ['put', ''],
        ['delete', ''],
        ['get', '/runs'],
        ['get', '/artifacts'],
        ['get', `/runs/${task.runId}`],
      ] as const) {
        const res = await s.api[method](`${path}${suffix}`, { token: bob.token, body: method === 'put' ? { title: 'mine now' } : undefined });
        assert.equal(res.status, 404, `${method} ${suffix} of another user's task`);
        assert.equal(res.body.error, 'not_found');
      }
      assert.equal((await s.api.get(`${path}/runs/999999`, { token: carol.token })).status, 404);
      assert.equal((await s.api.get(`${path}/artifacts/999999`, { token: carol.token })).status, 404);
      assert.equal((await s.api.get('/api/worker/my-tasks/abc', { token: carol.token })).status, 400);
      assert.equal((await s.api.get(path, { token: carol.token })).body.data.title, 'New title');
    });

    test('assigning an owner name notifies users whose full_name or username equals it; nothing when unassigned', async () => {
      const dana = await s.user('employee', { full_name: 'Dana Owner-Test' });
      const erik = await s.user();
      const notes = async (token: string) => (await s.api.get('/api/notifications', { token })).body.data as { type: string; title: string; link: string }[];
      const task = await chatOk(s, carol.token, { message: 'Hand this over.' });
      const path = `/api/worker/my-tasks/${task.taskId}`;

      const assigned = await s.api.put(path, { token: carol.token, body: { owner: 'Dana Owner-Test' } });
      assert.equal(assigned.status, 200);
      assert.equal(assigned.body.data.owner, 'Dana Owner-Test');
      const [note] = await notes(dana.token);
      assert.equal(note?.type, 'assignment');
      assert.match(note!.title, /Hand this over\./);
      assert.equal(note!.link, `/worker/tasks/${task.taskId}`);

      await s.api.put(path, { token: carol.token, body: { owner: erik.username } });
      assert.equal((await notes(erik.token)).length, 1, 'a username matches too');

      for (const owner of ['', '未分配', 'unassigned', null]) {
        const res = await s.api.put(path, { token: carol.token, body: { owner } });
        assert.equal(res.status, 200);
      }
      assert.equal((await s.api.get(path, { token: carol.token })).body.data.owner, null);
      assert.equal((await notes(dana.token)).length, 1);
      assert.equal((await notes(erik.token)).length, 1);
    });

    test('DELETE removes the task with its runs and artifacts; notes linked to it stay, unlinked', async () => {
      fake.behave({ chunks: ['{"columns":["document","total"],"rows":[["x.txt","5"]]}'] });
      const reply = await chatOk(s, carol.token, { message: 'Extract and forget.', skill_key: 'batch_extraction', documents: [{ name: 'x.txt', content: 'total 5' }] });
      fake.behave({});
      await chatOk(s, carol.token, { message: 'One more turn.', task_id: reply.taskId });
      const note = (await s.api.post('/api/notes', { token: carol.token, body: { title: 'About that task', task_id: reply.taskId } })).body.data;
      const count = async (table: string) => Number((await s.server.db(table).where({ task_id: reply.taskId }).count({ n: '*' }).first())?.n);
      assert.equal(await count('worker_task_runs'), 2);
      assert.equal(await count('worker_task_artifacts'), 1);

      const del = await s.api.delete(`/api/worker/my-tasks/${reply.taskId}`, { token: carol.token });
      assert.equal(del.status, 200);
      assert.deepEqual(del.body.data, { id: reply.taskId, deleted: true });
      assert.equal(await count('worker_task_runs'), 0);
      assert.equal(await count('worker_task_artifacts'), 0);
      assert.equal((await s.api.get(`/api/worker/my-tasks/${reply.taskId}`, { token: carol.token })).status, 404);
      assert.equal((await s.api.get(`/api/worker/my-tasks/${reply.taskId}/runs`, { token: carol.token })).status, 404);
      assert.equal((await s.api.delete(`/api/worker/my-tasks/${reply.taskId}`, { token: carol.token })).status, 404);
      assert.equal((await s.api.get(`/api/notes/${note.id}`, { token: carol.token })).body.data.task_id, null);
    });
  });

  test('a client that disconnects mid-reply leaves a failed run', async () => {
    fake.behave({ chunks: ['one ', 'two ', 'three ', 'four ', 'five'], delayMs: 100 });
    const controller = new AbortController();
    const res = await fetch(`${s.url}/api/worker/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Stream slowly.' }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    let received = '';
    while (!received.includes('"type":"text"')) received += new TextDecoder().decode((await reader.read()).value);
    const taskId = JSON.parse(received.split('\n\n')[0]!.slice('data: '.length)).task_id as number;
    controller.abort();
    let status = 'running';
    for (let i = 0; i < 200 && status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = (await s.api.get(`/api/worker/my-tasks/${taskId}/runs`, { token: alice.token })).body.data[0].status;
    }
    assert.equal(status, 'failed');
    const [run] = (await s.api.get(`/api/worker/my-tasks/${taskId}/runs`, { token: alice.token })).body.data;
    assert.match(run.error, /disconnected/);
  });

  test('a run left running by a crash (the server was killed mid-reply) is failed at the next start', async () => {
    fake.behave({ chunks: ['An answer.'] });
    const reply = await chatOk(s, alice.token, { message: 'Summarise the week.' });
    // What a killed server leaves behind: the run's row still says running (no reply settled it).
    await s.server.db('worker_task_runs').where({ id: reply.runId }).update({ status: 'running', error: null, finished_at: null });
    await s.restart();
    const run = (await s.api.get(`/api/worker/my-tasks/${reply.taskId}/runs/${reply.runId}`, { token: alice.token })).body.data as { status: string; error: string; finished_at: string | null };
    assert.equal(run.status, 'failed');
    assert.match(run.error, /server stopped/);
    assert.ok(run.finished_at);
  });
});
