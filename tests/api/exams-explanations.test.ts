// GET /api/exam/sessions/{id}/explanations: what the result screen shows under each answer, only after the submit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { addPaper, addQuestion, allRight, questionBody, start, submit, uniqueDomain } from './exams-fixtures.js';

let ts: TestServer;

before(async () => {
  ts = await startTestServer();
});
after(() => ts.close());

const explanations = (token: string, sessionId: string) => ts.api.get(`/api/exam/sessions/${sessionId}/explanations`, { token });

describe('explanations of a session', () => {
  test('refused while the session is open, given in the session order once it is submitted', async () => {
    const domain = uniqueDomain('explained');
    const bank = [
      await addQuestion(ts, questionBody(domain, 'single', { explanation: '固定收益类产品按季度付息。' })),
      await addQuestion(ts, questionBody(domain, 'true_false', { explanation: '' })),
    ];
    for (const type of ['self_test', 'formal']) {
      const paper = await addPaper(ts, { domain, type, question_count: 2 });
      const me = await ts.user();
      const session = await start(ts, me.token, paper.id);

      const early = await explanations(me.token, session.session_id);
      assert.equal(early.status, 409, early.text);
      assert.equal(early.body.error, 'exam.session_open');

      await submit(ts, me.token, session.session_id, allRight(session.questions, bank));
      const res = await explanations(me.token, session.session_id);
      assert.equal(res.status, 200, res.text);
      const byId = new Map(bank.map((q) => [q.id, q.explanation]));
      assert.deepEqual(res.body.data, session.questions.map((q) => ({ question_id: q.id, explanation: byId.get(q.id) })), type);
    }
  });

  test("another user's session and an unknown one are 404; no token is 401", async () => {
    const domain = uniqueDomain('private');
    await addQuestion(ts, questionBody(domain));
    const paper = await addPaper(ts, { domain, type: 'self_test', question_count: 1 });
    const owner = await ts.user();
    const session = await start(ts, owner.token, paper.id);
    await submit(ts, owner.token, session.session_id, {});
    const other = await ts.user();
    assert.equal((await explanations(other.token, session.session_id)).status, 404);
    assert.equal((await explanations(owner.token, 'no-such-session')).status, 404);
    assert.equal((await ts.api.get(`/api/exam/sessions/${session.session_id}/explanations`)).status, 401);
  });
});
