// Spaced review across machines (docs/sync.md, "Spaced review"): the same person reviews on two branch laptops with
// no sync in between; the review log goes up exactly once and the central server ends with the cards that replaying
// both logs in time order with ts-fsrs gives; the cards come down to both laptops. Real server processes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmptyCard, fsrs, generatorParameters, type Card, type Grade } from 'ts-fsrs';
import { startNode, type Node } from '../support/sync-nodes.js';
import { usingPostgres } from '../support/server.js';
import { TestClock } from '../support/test-clock.js';
import type { Question } from '../../contract/exams.js';
import type { ReviewAnswerResult, ReviewQueue } from '../../contract/review.js';
import { answerSheet, questionBody, uniqueDomain } from './exams-fixtures.js';

const PASSWORD = 'branch-pass-1';
const scheduler = fsrs(generatorParameters({ request_retention: 0.9, enable_fuzz: false }));
let clock: TestClock;
let central: Node;
let laptopA: Node;
let laptopB: Node;

async function ok<T>(res: { status: number; text: string; body: { data: unknown } }, status = 200): Promise<T> {
  assert.equal(res.status, status, res.text);
  return res.body.data as T;
}
const setClock = (at: Date) => clock.set(at);
const run = async (node: Node) => ok<{ pushed: number; pulled: number; conflicts: number }>(await node.api.post('/api/sync/run', { token: node.adminToken }));

async function enrol(branch: Node, name: string) {
  const { enrolment_token } = await ok<{ enrolment_token: string }>(await central.api.post('/api/sync/devices', { token: central.adminToken, body: { name } }), 201);
  await ok(await branch.api.put('/api/sync/config', { token: branch.adminToken, body: { central_url: `http://127.0.0.1:${central.port}`, enrolment_token } }));
  await run(branch);
}

interface StoredCard { gid: string; due: string; state: number; reps: number; lapses: number; stability: number; last_review: string | null }
const CARD_FIELDS = ['gid', 'due', 'state', 'reps', 'lapses', 'stability', 'last_review'] as const;

async function cardsOf(node: Node, username: string): Promise<Map<string, StoredCard>> {
  const rows = (await node.database()('review_cards as c').join('users as u', 'u.id', 'c.user_id').where('u.username', username).select(CARD_FIELDS.map((f) => `c.${f}`))) as StoredCard[];
  return new Map(rows.map((r) => [r.gid, { ...r, state: Number(r.state), reps: Number(r.reps), lapses: Number(r.lapses), stability: Number(r.stability) }]));
}

/** ts-fsrs called directly on a log, in time order. */
function replayed(log: { rating: number; reviewed_at: string; gid: string }[]): Card {
  const reviews = log.filter((r) => r.rating > 0).sort((a, b) => (a.reviewed_at < b.reviewed_at ? -1 : a.reviewed_at > b.reviewed_at ? 1 : a.gid < b.gid ? -1 : 1));
  let card = createEmptyCard(new Date(reviews[0]!.reviewed_at));
  for (const r of reviews) card = scheduler.next(card, new Date(r.reviewed_at), r.rating as Grade).card;
  return card;
}

describe(`spaced review across two laptops (central on ${usingPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  before(async () => {
    clock = TestClock.start();
    const env = clock.env;
    [central, laptopA, laptopB] = await Promise.all([startNode({ postgres: usingPostgres, env }), startNode({ postgres: false, env }), startNode({ postgres: false, env })]);
    const domain = uniqueDomain('revsync');
    for (const type of ['single', 'multiple', 'true_false'] as const) await ok(await central.api.post('/api/exam/questions', { token: central.adminToken, body: questionBody(domain, type) }), 201);
    await ok(await central.api.post('/api/exam/papers', { token: central.adminToken, body: { name: 'Review exam', type: 'formal', domain, question_count: 3, total_score: 100, pass_score: 60, duration_minutes: 30, randomize: false } }), 201);
    await ok(await central.api.post('/api/system/users', { token: central.adminToken, body: { username: 'rita', password: PASSWORD, full_name: 'Rita Review', role: 'employee' } }), 201);
    await enrol(laptopA, 'Laptop A');
    await enrol(laptopB, 'Laptop B');
  });
  after(async () => {
    await Promise.all([laptopA?.close(), laptopB?.close(), central?.close()]);
    clock?.stop();
  });

  test('two laptops review offline; central replays both logs in time order; both laptops converge', async () => {
    const t0 = new Date();
    setClock(t0);
    // Rita fails the exam on laptop A: three cards, each with an Again.
    const tokenA = await laptopA.api.login('rita', PASSWORD);
    const bankA = await ok<Question[]>(await laptopA.api.get('/api/exam/questions', { token: laptopA.adminToken }));
    const paper = (await ok<{ id: number; name: string }[]>(await laptopA.api.get('/api/exam/papers', { token: laptopA.adminToken }))).find((p) => p.name === 'Review exam')!;
    const started = await ok<{ session_id: string; questions: { id: number }[] }>(await laptopA.api.post('/api/exam/start', { token: tokenA, body: { paper_id: paper.id } }));
    await ok(await laptopA.api.post('/api/exam/submit', { token: tokenA, body: { session_id: started.session_id, answers: answerSheet(started.questions as never, bankA, () => false), time_spent_sec: 30 } }));
    assert.ok((await run(laptopA)).pushed >= 3);
    await run(laptopB);
    assert.equal((await cardsOf(laptopB, 'rita')).size, 3, 'the cards came down to laptop B');

    // Offline on both (no sync): interleaved reviews of the same cards.
    const tokenB = await laptopB.api.login('rita', PASSWORD);
    const bankB = await ok<Question[]>(await laptopB.api.get('/api/exam/questions', { token: laptopB.adminToken }));
    const review = async (node: Node, token: string, bank: Question[], at: Date, pick: number, right: boolean) => {
      setClock(at);
      const queue = await ok<ReviewQueue>(await node.api.get('/api/review/queue', { token }));
      // The same question on both laptops (by stem; local ids differ), reviewed whether due or not.
      const q = [...bank].filter((b) => b.stem.includes('revsync')).sort((a, b) => a.stem.localeCompare(b.stem))[pick]!;
      const item = queue.items.find((i) => i.question!.id === q.id);
      assert.ok(item, `question ${pick} is due on the laptop`);
      const sheet = answerSheet([{ id: q.id } as never], bank, () => right);
      return ok<ReviewAnswerResult>(await node.api.post('/api/review/answers', { token, body: { card_id: item.card_id, answer: sheet[String(q.id)] } }));
    };
    const minutes = (n: number) => new Date(t0.getTime() + n * 60_000);
    await review(laptopA, tokenA, bankA, minutes(5), 0, true);
    await review(laptopB, tokenB, bankB, minutes(6), 0, false);
    await review(laptopB, tokenB, bankB, minutes(7), 1, true);
    await review(laptopA, tokenA, bankA, minutes(8), 1, false);
    await review(laptopA, tokenA, bankA, minutes(9), 2, true);

    setClock(minutes(10));
    const upB = await run(laptopB);
    assert.equal(upB.conflicts, 0);
    const upA = await run(laptopA);
    assert.equal(upA.conflicts, 0);
    await run(laptopB);

    const db = central.database();
    const log = (await db('review_log as l').join('users as u', 'u.id', 'l.user_id').where('u.username', 'rita').join('review_cards as c', 'c.id', 'l.card_id')
      .select('c.gid as card_gid', 'l.gid', 'l.rating', 'l.reviewed_at')) as { card_gid: string; gid: string; rating: number; reviewed_at: string }[];
    assert.equal(log.length, 3 + 5, 'each event once');
    const centralCards = await cardsOf(central, 'rita');
    assert.equal(centralCards.size, 3);
    for (const [gid, card] of centralCards) {
      const expected = replayed(log.filter((l) => l.card_gid === gid).map((l) => ({ ...l, rating: Number(l.rating) })));
      assert.equal(card.due, expected.due.toISOString(), `card ${gid} due`);
      assert.equal(card.state, expected.state);
      assert.equal(card.reps, expected.reps);
      assert.equal(card.lapses, expected.lapses);
      assert.equal(card.last_review, expected.last_review!.toISOString());
    }
    // A card reviewed on both laptops has both laptops' events.
    assert.ok([...centralCards.values()].some((c) => c.reps === 3));

    // Both laptops end with central's cards.
    assert.deepEqual(await cardsOf(laptopA, 'rita'), centralCards);
    assert.deepEqual(await cardsOf(laptopB, 'rita'), centralCards);

    // Exactly once: syncing again sends and stores nothing more.
    assert.equal((await run(laptopA)).pushed, 0);
    assert.equal((await run(laptopB)).pushed, 0);
    const again = await db('review_log as l').join('users as u', 'u.id', 'l.user_id').where('u.username', 'rita').count({ count: '*' }).first();
    assert.equal(Number(again!.count), 8);
  });
});
