// Spaced review's cards derived after the submit's commit (docs/api/review.md, "When cards appear"): a queue read
// right after a submit has its cards; a server killed with submits still pending derives them at the next start,
// none lost and none doubled, each card what ts-fsrs gives for its log.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { createEmptyCard, fsrs, generatorParameters, type Grade } from 'ts-fsrs';
import { startTestServer, usingPostgres, ADMIN_PASSWORD, type TestServer } from '../support/server.js';
import { startCli, stopCli } from '../support/cli.js';
import { ApiClient } from '../support/client.js';
import { TestClock } from '../support/test-clock.js';
import type { ExamPaperAdmin, Question, StartedExam } from '../../contract/exams.js';
import type { ReviewQueue } from '../../contract/review.js';
import { addPaper, addQuestions, answerSheet, start, submit, uniqueDomain } from './exams-fixtures.js';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MINUTE = 60_000;
const scheduler = fsrs(generatorParameters({ request_retention: 0.9, enable_fuzz: false }));

interface LogRow {
  card_id: number;
  rating: number;
  reviewed_at: string;
  gid: string;
}
interface CardRow {
  id: number;
  user_id: number;
  due: string;
  reps: number;
  lapses: number;
  state: number;
  stability: number;
}

/** Each card of these people against ts-fsrs replaying its log, and their counts: cards per person, events per card. */
async function checkCards(db: Knex, userIds: number[]): Promise<{ cards: Map<number, number>; events: Map<number, number> }> {
  const cards = (await db('review_cards').whereIn('user_id', userIds).select('id', 'user_id', 'due', 'reps', 'lapses', 'state', 'stability')) as CardRow[];
  const log = (await db('review_log').whereIn('user_id', userIds).orderBy(['card_id', 'reviewed_at', 'gid']).select('card_id', 'rating', 'reviewed_at', 'gid')) as LogRow[];
  const byCard = new Map<number, LogRow[]>();
  for (const e of log) byCard.set(Number(e.card_id), [...(byCard.get(Number(e.card_id)) ?? []), e]);
  const perUser = new Map<number, number>();
  const events = new Map<number, number>();
  for (const card of cards) {
    perUser.set(Number(card.user_id), (perUser.get(Number(card.user_id)) ?? 0) + 1);
    const history = byCard.get(Number(card.id)) ?? [];
    events.set(Number(card.id), history.length);
    let expected = createEmptyCard(new Date(history[0]!.reviewed_at));
    for (const e of history) expected = scheduler.next(expected, new Date(e.reviewed_at), e.rating as Grade).card;
    assert.equal(card.due, expected.due.toISOString(), `card ${card.id}: due`);
    assert.deepEqual([Number(card.reps), Number(card.lapses), Number(card.state)], [expected.reps, expected.lapses, expected.state], `card ${card.id}: reps, lapses, state`);
    assert.ok(Math.abs(Number(card.stability) - expected.stability) < 1e-9, `card ${card.id}: stability`);
  }
  return { cards: perUser, events };
}

describe('review cards derived after the submit', () => {
  let ts: TestServer;
  let clock: TestClock;

  before(async () => {
    clock = TestClock.start(Date.now());
    ts = await startTestServer();
  });
  after(async () => {
    await ts?.close();
    clock?.stop();
  });

  test('a queue read right after a submit has every card of its wrong answers, moved as a replay of the log moves them', async () => {
    const domain = uniqueDomain('derived');
    const bank = await addQuestions(ts, domain, 6);
    const paper = await addPaper(ts, { name: `Paper ${domain}`, domain, question_count: 6, show_answers: 'always' });
    const people = await Promise.all(Array.from({ length: 8 }, () => ts.user()));
    const wrong = (q: Question) => bank.indexOf(q) % 2 === 0; // questions 0, 2, 4 answered wrongly
    const sessions = await Promise.all(people.map((p) => start(ts, p.token, paper.id)));
    // All at once, so that several land in one submit batch and the reads race the derivation.
    const queues = await Promise.all(
      people.map(async (p, i) => {
        await submit(ts, p.token, sessions[i]!.session_id, answerSheet(sessions[i]!.questions, bank, (id) => !wrong(bank.find((q) => q.id === id)!)));
        return ts.api.get('/api/review/queue', { token: p.token });
      }),
    );
    // The cards are learning, due a minute after the submit: not yet due at the submit's instant.
    for (const res of queues) assert.equal(res.status, 200, res.text);
    clock.set(new Date(clock.ms + 2 * MINUTE));
    for (const p of people) {
      const queue = (await ts.api.get('/api/review/queue', { token: p.token })).body.data as ReviewQueue;
      assert.equal(queue.due_count, 3, `${p.username}: one card per wrong answer`);
      assert.deepEqual(queue.items.map((i) => i.question!.id).sort((a, b) => a - b), bank.filter(wrong).map((q) => q.id).sort((a, b) => a - b));
    }

    // A second paper, taken once more by each: the same cards move (Again again), no new card, one more event each.
    const again = await Promise.all(people.map((p) => start(ts, p.token, paper.id)));
    await Promise.all(people.map((p, i) => submit(ts, p.token, again[i]!.session_id, answerSheet(again[i]!.questions, bank, (id) => !wrong(bank.find((q) => q.id === id)!)))));
    clock.set(new Date(clock.ms + 2 * MINUTE));
    const card = (await ts.api.get('/api/review/queue', { token: people[0]!.token })).body.data as ReviewQueue;
    const summary = await ts.api.get(`/api/review/cards/${card.items[0]!.card_id}`, { token: people[0]!.token });
    assert.equal(summary.status, 200, summary.text);
    assert.equal(summary.body.data.lapses + summary.body.data.reps >= 2, true, 'the second wrong answer moved the card');

    const db = knexFactory(ts.server.about.database.engine === 'PostgreSQL'
      ? { client: 'pg', connection: POSTGRES_URL, searchPath: [ts.config.databaseSchema!] }
      : { client: 'sqlite3', connection: { filename: path.join(ts.dataDir, 'trainbench.sqlite') }, useNullAsDefault: true });
    try {
      // Every read above applied its person's pending submits; the rest are derived in the background.
      for (const p of people) await ts.api.get('/api/review/queue', { token: p.token });
      const { cards, events } = await checkCards(db, people.map((p) => p.id));
      for (const p of people) assert.equal(cards.get(p.id), 3, `${p.username}: three cards`);
      assert.deepEqual([...new Set(events.values())], [2], 'two events a card, one per submit');
      assert.equal(Number((await db('review_pending').count({ count: '*' }).first())?.count), 0);
    } finally {
      await db.destroy();
    }
  });
});

describe('review cards of submits pending at a kill', () => {
  const schema = usingPostgres ? `tb_${crypto.randomBytes(6).toString('hex')}` : undefined;
  let dir: string;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-derived-'));
  });
  after(async () => {
    if (schema) {
      const admin = knexFactory({ client: 'pg', connection: POSTGRES_URL });
      for (const each of [schema, `${schema}_jobs`]) await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [each]);
      await admin.destroy();
    }
    await fs.rm(dir, { recursive: true, force: true });
  });

  const openDb = () =>
    knexFactory(schema ? { client: 'pg', connection: POSTGRES_URL, searchPath: [schema] } : { client: 'sqlite3', connection: { filename: path.join(dir, 'trainbench.sqlite') }, useNullAsDefault: true });

  test('SIGKILL amid a stream of submits: the next start derives what was pending, no card lost or doubled', async () => {
    const env: Record<string, string> = { DATA_DIR: dir, PORT: '0', ADMIN_PASSWORD, ...(schema ? { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema } : {}) };
    // The first server derives a minute after each commit (REVIEW_DERIVE_AFTER_MS): every submit it acknowledged is still
    // pending when it is killed, so the next start's derivation is what is checked, on a loaded machine too.
    const first = await startCli({ ...env, REVIEW_DERIVE_AFTER_MS: '60000' });
    const api = new ApiClient(first.url);
    const admin = await api.login('admin', ADMIN_PASSWORD);
    const domain = uniqueDomain('killed');
    const QUESTIONS = 50;
    const bank: Question[] = [];
    for (let i = 0; i < QUESTIONS; i++) {
      const res = await api.post('/api/exam/questions', { token: admin, body: { domain, course_id: null, type: 'single', stem: `Q${i} of ${domain}?`, explanation: 'Because.', options: ['A', 'B', 'C', 'D'].map((key) => ({ key, text: key })), answer: ['B'] } });
      assert.equal(res.status, 201, res.text);
      bank.push(res.body.data as Question);
    }
    const paperRes = await api.post('/api/exam/papers', {
      token: admin,
      body: { name: 'Killed', type: 'formal', domain, question_count: QUESTIONS, total_score: 100, pass_score: 60, duration_minutes: 30, randomize: false, show_answers: 'always' },
    });
    assert.equal(paperRes.status, 201, paperRes.text);
    const paper = paperRes.body.data as ExamPaperAdmin;
    const people: { id: number; token: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await api.post('/api/system/users', { token: admin, body: { username: `killed${i}`, password: 'secret-pass', full_name: `K ${i}`, role: 'employee' } });
      assert.equal(res.status, 201, res.text);
      people.push({ id: res.body.data.id, token: await api.login(`killed${i}`, 'secret-pass') });
    }
    const SESSIONS = 8;
    const started: { token: string; session: StartedExam }[] = [];
    for (const p of people) {
      for (let s = 0; s < SESSIONS; s++) {
        const res = await api.post('/api/exam/start', { token: p.token, body: { paper_id: paper.id } });
        assert.equal(res.status, 200, res.text);
        started.push({ token: p.token, session: res.body.data as StartedExam });
      }
    }
    // Every answer wrong, eight submits at a time; the server is killed once half are acknowledged, submits and their
    // derivation still running.
    const acknowledged = new Set<string>();
    let next = 0;
    let killed = false;
    const submitter = async () => {
      while (!killed && next < started.length) {
        const { token, session } = started[next++]!;
        const res = await api.post('/api/exam/submit', { token, body: { session_id: session.session_id, answers: answerSheet(session.questions, bank, () => false), time_spent_sec: 60 } }).catch(() => undefined);
        if (res?.status === 200) acknowledged.add(session.session_id);
      }
    };
    const submitters = Array.from({ length: 8 }, submitter);
    while (acknowledged.size < started.length / 2) await new Promise((resolve) => setTimeout(resolve, 2));
    await stopCli(first.child, 'SIGKILL');
    killed = true;
    await Promise.all(submitters);

    let db = openDb();
    let pendingAtKill: number;
    try {
      pendingAtKill = Number((await db('review_pending').count({ count: '*' }).first())?.count);
      console.log(`# submits pending at the kill: ${pendingAtKill}; acknowledged ${acknowledged.size} of ${started.length}`);
    } finally {
      await db.destroy();
    }

    const second = await startCli(env);
    try {
      const api2 = new ApiClient(second.url);
      for (const p of people) assert.equal((await api2.get('/api/review/queue', { token: p.token })).status, 200);
      db = openDb();
      try {
        // Every committed submit (its record stored: all the acknowledged ones, maybe a few more) counts once.
        const records = (await db('exam_records').where({ paper_id: paper.id }).select('session_id', 'user_id')) as { session_id: string; user_id: number }[];
        const stored = new Set(records.map((r) => r.session_id));
        for (const id of acknowledged) assert.ok(stored.has(id), `acknowledged submit ${id} has its record`);
        const submitsOf = new Map<number, number>();
        for (const r of records) submitsOf.set(Number(r.user_id), (submitsOf.get(Number(r.user_id)) ?? 0) + 1);
        const { cards, events } = await checkCards(db, people.map((p) => p.id));
        const eventsOf = new Map<number, number[]>();
        const cardUsers = (await db('review_cards').whereIn('user_id', people.map((p) => p.id)).select('id', 'user_id')) as { id: number; user_id: number }[];
        for (const c of cardUsers) eventsOf.set(Number(c.user_id), [...(eventsOf.get(Number(c.user_id)) ?? []), events.get(Number(c.id))!]);
        for (const p of people) {
          const submits = submitsOf.get(p.id) ?? 0;
          assert.equal(cards.get(p.id) ?? 0, submits ? QUESTIONS : 0, `person ${p.id}: one card per question`);
          assert.deepEqual([...new Set(eventsOf.get(p.id) ?? [])], submits ? [submits] : [], `person ${p.id}: one event per stored submit on every card`);
        }
        assert.equal(Number((await db('review_pending').count({ count: '*' }).first())?.count), 0);
      } finally {
        await db.destroy();
      }
    } finally {
      await stopCli(second.child);
    }
    // Submits were being committed up to the kill, and the first server derived only a minute after a commit.
    assert.ok(pendingAtKill > 0, 'the kill left submits pending');
  });
});
