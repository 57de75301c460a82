// Counted once: simultaneous identical writes over real HTTP store one thing. Twenty inspections of one call's
// revision under one rule-set version are one inspection, with one set of review items and one admin notice each.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { VIOLATING, addCloudRoute, transcribeScript } from './compliance-fixtures.js';
import { addPaper, addQuestions, uniqueDomain } from './exams-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('idempotent under concurrency', () => {
  let ts: TestServer;
  let fake: FakeModel;
  let rep: { id: number; token: string };
  before(async () => {
    ts = await startTestServer();
    fake = await startFakeModel();
    rep = await ts.user('employee');
    await addCloudRoute(ts, fake);
  });
  after(async () => {
    await ts.close();
    await fake.close();
  });

  const inspect = (body: Record<string, unknown>) => ts.api.post('/api/compliance/inspections', { token: rep.token, body });
  const noticesAbout = async (id: number) =>
    ((await ts.api.get('/api/notifications', { token: ts.adminToken })).body.data as Json[]).filter((n) => n.link === `/admin/compliance/inspections/${id}`);

  test('20 simultaneous inspections of one revision return one inspection, one set of review items, one notice', async () => {
    // Labelled A/B: not inspected by itself after transcription, only on request naming the rep.
    const transcriptionId = await transcribeScript(ts, fake, rep.token, VIOLATING.map((t) => ({ ...t, side: t.side === 'rep' ? 'A' : 'B' })), 'twenty.wav');
    const answers = await Promise.all(Array.from({ length: 20 }, () => inspect({ transcription_id: transcriptionId, rep_speaker: 'A' })));
    for (const res of answers) assert.equal(res.status, 201, res.text);
    const ids = new Set(answers.map((r) => r.body.data.id as number));
    assert.equal(ids.size, 1, [...ids].join(','));
    const [id] = [...ids] as [number];

    const rows = await ts.server.db('compliance_inspections').where({ transcription_id: transcriptionId, user_id: rep.id });
    assert.equal(rows.length, 1);
    const criticalFails = (answers[0]!.body.data.results as Json[]).filter((r) => r.outcome === 'fail' && r.severity === 'critical').length;
    assert.ok(criticalFails > 0);
    const items = ((await ts.api.get('/api/coaching/review-items?size=200', { token: rep.token })).body.data.items as Json[]).filter((i) => i.inspection_id === id);
    assert.equal(items.length, criticalFails);
    assert.equal((await noticesAbout(id)).length, 1);

    // Asked again later: the same inspection; another rep speaker is another inspection.
    const again = await inspect({ transcription_id: transcriptionId, rep_speaker: 'A' });
    assert.equal(again.body.data.id, id);
    const otherRep = await inspect({ transcription_id: transcriptionId, rep_speaker: 'B' });
    assert.equal(otherRep.status, 201);
    assert.notEqual(otherRep.body.data.id, id);
  });

  test('20 simultaneous publishes of one assignment make one assignment and one notice per person', async () => {
    const domain = uniqueDomain('twice');
    await addQuestions(ts, domain, 2);
    const paper = await addPaper(ts, { name: 'Published twice', domain, question_count: 2 });
    const body = { item: { type: 'exam', id: paper.id }, target: { user_ids: [rep.id] }, due_at: new Date(Date.now() + 5 * 86_400_000).toISOString() };
    const answers = await Promise.all(Array.from({ length: 20 }, () => ts.api.post('/api/assignments', { token: ts.adminToken, body })));
    for (const res of answers) assert.equal(res.status, 201, res.text);
    const ids = new Set(answers.map((r) => r.body.data.id as number));
    assert.equal(ids.size, 1, [...ids].join(','));
    assert.equal((await ts.server.db('assignments').where({ paper_id: paper.id })).length, 1);
    const notices = ((await ts.api.get('/api/notifications', { token: rep.token })).body.data as Json[]).filter((n) => n.type === 'directed' && n.title.includes('Published twice'));
    assert.equal(notices.length, 1, JSON.stringify(notices));
    // Another due date, or other people, is another assignment.
    const later = await ts.api.post('/api/assignments', { token: ts.adminToken, body: { ...body, due_at: new Date(Date.now() + 6 * 86_400_000).toISOString() } });
    assert.equal(later.status, 201);
    assert.ok(!ids.has(later.body.data.id));
  });

  test('a call inspected by itself after transcription answers that inspection when asked again', async () => {
    const transcriptionId = await transcribeScript(ts, fake, rep.token, VIOLATING, 'auto.wav');
    const auto = (await ts.api.get(`/api/compliance/inspections?transcription_id=${transcriptionId}`, { token: rep.token })).body.data;
    assert.equal(auto.total, 1, JSON.stringify(auto));
    const answers = await Promise.all(Array.from({ length: 20 }, () => inspect({ transcription_id: transcriptionId })));
    assert.deepEqual(new Set(answers.map((r) => r.body.data.id)), new Set([auto.items[0].id]));
    assert.equal((await ts.server.db('compliance_inspections').where({ transcription_id: transcriptionId, user_id: rep.id })).length, 1);
  });
});
