// Resuming an exam: the list and the cover name the caller's open session (to resume instead of starting again),
// with its deadline and last save; a submitted or expired session, or someone else's, is never named.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import type { ExamCover, ExamListItem, SessionState } from '../../contract/exams.js';
import { addPaper, addQuestions, allRight, start, submit, uniqueDomain } from './exams-fixtures.js';

let ts: TestServer;

before(async () => {
  ts = await startTestServer();
});
after(() => ts.close());

async function paperWithBank() {
  const domain = uniqueDomain('resume');
  const bank = await addQuestions(ts, domain, 3);
  return { bank, paper: await addPaper(ts, { domain }) };
}

const listed = async (token: string, paperId: number) => ((await ts.api.get('/api/exam/list', { token })).body.data as ExamListItem[]).find((e) => e.id === paperId)!;
const cover = async (token: string, paperId: number) => (await ts.api.get(`/api/exam/cover?id=${paperId}`, { token })).body.data as ExamCover;

describe('the open session on the list and the cover', () => {
  test('none before a start; the latest open one after; none once submitted', async () => {
    const me = await ts.user();
    const { paper, bank } = await paperWithBank();
    assert.equal((await listed(me.token, paper.id)).open_session, null);
    assert.equal((await cover(me.token, paper.id)).open_session, null);

    const first = await start(ts, me.token, paper.id);
    const second = await start(ts, me.token, paper.id);
    const expected = { session_id: second.session_id, deadline_at: second.deadline_at, saved_at: null };
    assert.deepEqual((await listed(me.token, paper.id)).open_session, expected, 'the latest start');
    assert.deepEqual((await cover(me.token, paper.id)).open_session, expected);

    const saved = await ts.api.put(`/api/exam/sessions/${second.session_id}/answers`, { token: me.token, body: { answers: allRight(second.questions, bank) } });
    assert.equal(saved.status, 200, saved.text);
    const item = await listed(me.token, paper.id);
    assert.equal(item.status, 'in_progress');
    assert.equal(item.open_session?.saved_at, saved.body.data.saved_at);

    // The named session resumes with its questions and answers: what the renderer does after a reload.
    const state = (await ts.api.get(`/api/exam/sessions/${item.open_session!.session_id}`, { token: me.token })).body.data as SessionState;
    assert.deepEqual(state.questions, second.questions);
    assert.deepEqual(state.saved_answers, allRight(second.questions, bank));
    assert.equal(state.deadline_at, second.deadline_at, 'the deadline is the one set at the start');

    await submit(ts, me.token, second.session_id, allRight(second.questions, bank));
    assert.equal((await listed(me.token, paper.id)).open_session?.session_id, first.session_id, 'the earlier start is still open');
    await submit(ts, me.token, first.session_id, {});
    assert.equal((await listed(me.token, paper.id)).open_session, null);
    assert.equal((await cover(me.token, paper.id)).open_session, null);
  });

  test('a session past its deadline and grace is not named; a session within the grace is', async () => {
    const me = await ts.user();
    const { paper } = await paperWithBank();
    const session = await start(ts, me.token, paper.id);
    const moveDeadline = (secondsAgo: number) =>
      ts.server.db('exam_sessions').where({ id: session.session_id }).update({ deadline_at: new Date(Date.now() - secondsAgo * 1000).toISOString() });
    await moveDeadline(5);
    assert.equal((await listed(me.token, paper.id)).open_session?.session_id, session.session_id, 'within the 30 s grace');
    await moveDeadline(120);
    const item = await listed(me.token, paper.id);
    assert.equal(item.open_session, null);
    assert.equal(item.status, 'not_started');
    assert.equal((await cover(me.token, paper.id)).open_session, null);
  });

  test("another user's open session is not theirs to resume", async () => {
    const me = await ts.user();
    const other = await ts.user();
    const { paper } = await paperWithBank();
    await start(ts, me.token, paper.id);
    assert.equal((await listed(other.token, paper.id)).open_session, null);
    assert.equal((await cover(other.token, paper.id)).open_session, null);
    assert.equal((await listed(ts.adminToken, paper.id)).open_session, null);
  });
});
