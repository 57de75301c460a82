import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import type { FakeModel } from '../support/fake-model.js';
import { listProjectsOfOwners } from '../../server/workbench/projects.service.js';
import { listNotesOfOwners } from '../../server/workbench/notes.service.js';
import { chatOk, useFakeModel } from './workbench.fixtures.js';

describe('workbench projects and study notes', () => {
  let s: TestServer;
  let fake: FakeModel;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  const as = (user: { token: string }) => ({ token: user.token });

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

  describe('/api/worker/projects', () => {
    test('create, list own only, read with tasks, update', async () => {
      const created = await s.api.post('/api/worker/projects', { ...as(alice), body: { name: '  Q2 audit  ', description: 'Supplier audit' } });
      assert.equal(created.status, 201, created.text);
      const project = created.body.data;
      assert.equal(project.name, 'Q2 audit');
      assert.equal(project.user_id, alice.id);
      assert.equal(project.task_count, 0);
      await s.api.post('/api/worker/projects', { ...as(bob), body: { name: 'Bob only' } });

      const task = await chatOk(s, alice.token, { message: 'First audit step.', project_id: project.id });
      const list = (await s.api.get('/api/worker/projects', as(alice))).body.data;
      assert.deepEqual(
        list.map((p: { id: number; task_count: number }) => [p.id, p.task_count]),
        [[project.id, 1]],
      );
      const detail = (await s.api.get(`/api/worker/projects/${project.id}`, as(alice))).body.data;
      assert.deepEqual(
        detail.tasks.map((t: { id: number; project_id: number }) => [t.id, t.project_id]),
        [[task.taskId, project.id]],
      );
      const filtered = (await s.api.get(`/api/worker/my-tasks?project_id=${project.id}`, as(alice))).body.data;
      assert.deepEqual(
        filtered.map((t: { id: number }) => t.id),
        [task.taskId],
      );

      const updated = await s.api.put(`/api/worker/projects/${project.id}`, { ...as(alice), body: { name: 'Q2 supplier audit' } });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.data.name, 'Q2 supplier audit');
      assert.equal(updated.body.data.description, 'Supplier audit');
    });

    test('deleting a project keeps its tasks with project_id null', async () => {
      const project = (await s.api.post('/api/worker/projects', { ...as(alice), body: { name: 'Short project' } })).body.data;
      const one = await chatOk(s, alice.token, { message: 'Task in project.', project_id: project.id });
      const two = await chatOk(s, alice.token, { message: 'Moved in later.' });
      await s.api.put(`/api/worker/my-tasks/${two.taskId}`, { ...as(alice), body: { project_id: project.id } });

      const del = await s.api.delete(`/api/worker/projects/${project.id}`, as(alice));
      assert.equal(del.status, 200);
      assert.deepEqual(del.body.data, { id: project.id, deleted: true });
      for (const taskId of [one.taskId, two.taskId]) {
        const task = await s.api.get(`/api/worker/my-tasks/${taskId}`, as(alice));
        assert.equal(task.status, 200);
        assert.equal(task.body.data.project_id, null);
      }
      assert.equal((await s.api.get(`/api/worker/projects/${project.id}`, as(alice))).status, 404);
    });

    test('another user’s project is 404 on every endpoint; 400 and 401 on bad input', async () => {
      const bobs = (await s.api.post('/api/worker/projects', { ...as(bob), body: { name: 'Private' } })).body.data;
      assert.equal((await s.api.get(`/api/worker/projects/${bobs.id}`, as(alice))).status, 404);
      assert.equal((await s.api.put(`/api/worker/projects/${bobs.id}`, { ...as(alice), body: { name: 'Mine' } })).status, 404);
      assert.equal((await s.api.delete(`/api/worker/projects/${bobs.id}`, as(alice))).status, 404);
      assert.equal((await s.api.get(`/api/worker/my-tasks?project_id=${bobs.id}`, as(alice))).status, 404);
      assert.equal((await s.api.get(`/api/worker/projects/${bobs.id}`, as(bob))).body.data.name, 'Private');

      for (const body of [{}, { name: '' }, { name: 7 }]) {
        assert.equal((await s.api.post('/api/worker/projects', { ...as(alice), body })).status, 400, JSON.stringify(body));
      }
      assert.equal((await s.api.put(`/api/worker/projects/${bobs.id}`, { ...as(bob), body: {} })).status, 400);
      assert.equal((await s.api.get('/api/worker/projects/x', as(alice))).status, 400);
      assert.equal((await s.api.get('/api/worker/projects')).status, 401);
      assert.equal((await s.api.post('/api/worker/projects', { body: { name: 'x' } })).status, 401);
    });

    test('the owner-set helper returns nothing for an empty owner set', async () => {
      assert.ok((await listProjectsOfOwners(s.server.db, [alice.id])).length > 0);
      assert.deepEqual(await listProjectsOfOwners(s.server.db, []), []);
    });
  });

  describe('/api/notes', () => {
    let courseId: number;
    let productId: number;
    before(async () => {
      courseId = (await s.api.post('/api/courses', { token: s.adminToken, body: { title: 'Objection handling' } })).body.data.id;
      productId = (await s.api.post('/api/products', { token: s.adminToken, body: { name: 'Steady Income Fund' } })).body.data.id;
    });

    test('create, read, update and delete the caller’s notes with links', async () => {
      const task = await chatOk(s, alice.token, { message: 'Study task.' });
      const created = await s.api.post('/api/notes', { ...as(alice), body: { title: 'Objections', content: 'Price is the usual one.', course_id: courseId, product_id: productId, task_id: task.taskId } });
      assert.equal(created.status, 201, created.text);
      const note = created.body.data;
      assert.deepEqual(
        { ...note, id: 0, created_at: '', updated_at: '' },
        { id: 0, user_id: alice.id, title: 'Objections', content: 'Price is the usual one.', course_id: courseId, product_id: productId, task_id: task.taskId, created_at: '', updated_at: '' },
      );
      assert.deepEqual((await s.api.get(`/api/notes/${note.id}`, as(alice))).body.data, note);

      const updated = await s.api.put(`/api/notes/${note.id}`, { ...as(alice), body: { content: 'Price, then timing.', product_id: null } });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.data.content, 'Price, then timing.');
      assert.equal(updated.body.data.product_id, null);
      assert.equal(updated.body.data.course_id, courseId);

      const del = await s.api.delete(`/api/notes/${note.id}`, as(alice));
      assert.deepEqual(del.body.data, { id: note.id, deleted: true });
      assert.equal((await s.api.get(`/api/notes/${note.id}`, as(alice))).status, 404);
    });

    test('links must resolve: unknown course or product 400, another user’s task 404', async () => {
      const bobsTask = await chatOk(s, bob.token, { message: 'Bob task.' });
      const post = (body: Record<string, unknown>) => s.api.post('/api/notes', { ...as(alice), body });
      assert.equal((await post({ title: 'x', course_id: 999999 })).status, 400);
      assert.equal((await post({ title: 'x', product_id: 999999 })).status, 400);
      assert.equal((await post({ title: 'x', task_id: bobsTask.taskId })).status, 404);
      assert.equal((await post({ title: 'x', task_id: 999999 })).status, 404);
      for (const body of [{}, { title: '' }, { title: 'x', course_id: 'one' }, { title: 'x', content: 5 }]) {
        assert.equal((await post(body)).status, 400, JSON.stringify(body));
      }
      const mine = (await post({ title: 'mine' })).body.data;
      assert.equal((await s.api.put(`/api/notes/${mine.id}`, { ...as(alice), body: { task_id: bobsTask.taskId } })).status, 404);
      assert.equal((await s.api.put(`/api/notes/${mine.id}`, { ...as(alice), body: {} })).status, 400);
    });

    test('notes are per user: another user’s note is 404 and never listed', async () => {
      const bobs = (await s.api.post('/api/notes', { ...as(bob), body: { title: 'Bob secret' } })).body.data;
      assert.equal((await s.api.get(`/api/notes/${bobs.id}`, as(alice))).status, 404);
      assert.equal((await s.api.put(`/api/notes/${bobs.id}`, { ...as(alice), body: { title: 'taken' } })).status, 404);
      assert.equal((await s.api.delete(`/api/notes/${bobs.id}`, as(alice))).status, 404);
      const titles = (await s.api.get('/api/notes', as(alice))).body.data.map((n: { title: string }) => n.title);
      assert.ok(!titles.includes('Bob secret'));
      assert.equal((await s.api.get('/api/notes')).status, 401);
      assert.deepEqual(await listNotesOfOwners(s.server.db, [], {}), []);
    });

    test('search by q over title and content, case-insensitive, wildcards literal; filter by link', async () => {
      const carol = await s.user();
      const post = async (body: Record<string, unknown>) => (await s.api.post('/api/notes', { ...as(carol), body })).body.data.id as number;
      const budget = await post({ title: 'Budget talk', content: 'Ask about the 50% discount.' });
      const closing = await post({ title: 'Closing', content: 'Summarise the BUDGET again.', course_id: courseId });
      await post({ title: 'Unrelated', content: 'Nothing here.' });
      const search = async (query: string) => (await s.api.get(`/api/notes${query}`, as(carol))).body.data.map((n: { id: number }) => n.id).sort();
      assert.deepEqual(await search('?q=budget'), [budget, closing].sort());
      assert.deepEqual(await search(`?q=${encodeURIComponent('50%')}`), [budget]);
      assert.deepEqual(await search(`?q=${encodeURIComponent('%')}`), [budget]);
      assert.deepEqual(await search(`?course_id=${courseId}`), [closing]);
      assert.deepEqual(await search('?q=nomatch'), []);
      assert.equal((await s.api.get('/api/notes?course_id=abc', as(carol))).status, 400);
    });
  });
});
