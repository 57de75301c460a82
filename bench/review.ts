// Issue 28 spaced review: (1) GET /api/review/queue of a person with 5,000 cards and 50,000 review-log rows against
// GET /api/products in the same run (p99 ≤ 2×); (2) rebuilding that person's cards from the log (read, replay with
// ts-fsrs, write) against ts-fsrs called directly on the same log in memory (≤ 1.2×).
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { createEmptyCard, type Card, type Grade } from 'ts-fsrs';
import { load, report, startBenchServer, type BenchContext } from './harness.js';
import { random } from './knowledge.js';
import { insertJsonRows, type Columns } from '../server/db/json-rows.js';
import { rebuildCards } from '../server/review/cards.repository.js';
import { replay, schedulerFor, toColumns, type LoggedReview } from '../server/review/scheduler.js';

const CARDS = 5_000;
const REVIEWS_PER_CARD = 10;
const DAY = 86_400_000;
const scheduler = schedulerFor(0.9);

interface Seeded {
  userId: number;
  cardIds: number[];
  logs: Map<number, LoggedReview[]>;
}

/** 5,000 questions, one person's card for each, ten reviews per card over the last year (Again first, then mostly Good). */
export async function seed(db: Knex, userId: number): Promise<Seeded> {
  const rand = random(28);
  const stamp = new Date().toISOString();
  const questions = Array.from({ length: CARDS }, (_, i) => ({
    domain: `bench-${i % 20}`, type: 'single', stem: `复习基准题 ${i}：以下哪一项正确？`, options: JSON.stringify(['A', 'B', 'C', 'D'].map((key) => ({ key, text: `选项 ${key}` }))),
    answer: JSON.stringify(['B']), explanation: '基准解析。', status: 'active', created_at: stamp, updated_at: stamp,
  }));
  for (let i = 0; i < questions.length; i += 500) await db('questions').insert(questions.slice(i, i + 500));
  const questionIds = ((await db('questions').where('stem', 'like', '复习基准题%').orderBy('id').pluck('id')) as number[]).map(Number);
  const start = Date.now() - 365 * DAY;
  const cards: Record<string, unknown>[] = [];
  const events: { card: number; rating: number; at: string; gid: string }[] = [];
  questionIds.forEach((questionId, i) => {
    let at = start + rand() * 200 * DAY;
    let card: Card = createEmptyCard(new Date(at));
    for (let r = 0; r < REVIEWS_PER_CARD; r++) {
      const rating = (r === 0 ? 1 : rand() < 0.12 ? 1 : rand() < 0.2 ? 2 : rand() < 0.9 ? 3 : 4) as Grade;
      card = scheduler.next(card, new Date(at), rating).card;
      events.push({ card: i, rating, at: new Date(at).toISOString(), gid: `00000000-0000-4000-8000-${String(i * REVIEWS_PER_CARD + r).padStart(12, '0')}` });
      at = Math.min(Date.now() - DAY, Math.max(at + 60_000, card.due.getTime() + rand() * 3 * DAY));
    }
    cards.push({ gid: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`, user_id: userId, kind: 'question', question_id: questionId, ...toColumns(card), created_at: new Date(start).toISOString(), updated_at: stamp });
  });
  for (let i = 0; i < cards.length; i += 200) await db('review_cards').insert(cards.slice(i, i + 200));
  const cardIds = ((await db('review_cards').where({ user_id: userId }).orderBy('gid').pluck('id')) as number[]).map(Number);
  type LogRow = { gid: string; card_id: number; user_id: number; rating: number; reviewed_at: string; origin: string; correct: boolean; answer: string; from_central: boolean; created_at: string };
  const columns: Columns<LogRow> = [['gid', 'text'], ['card_id', 'integer'], ['user_id', 'integer'], ['rating', 'integer'], ['reviewed_at', 'text'], ['origin', 'text'], ['correct', 'boolean'], ['answer', 'text'], ['from_central', 'boolean'], ['created_at', 'text']];
  const rows: LogRow[] = events.map((e) => ({ gid: e.gid, card_id: cardIds[e.card]!, user_id: userId, rating: e.rating, reviewed_at: e.at, origin: 'review', correct: e.rating > 1, answer: '"B"', from_central: false, created_at: stamp }));
  for (let i = 0; i < rows.length; i += 2000) await insertJsonRows(db, 'review_log', columns, rows.slice(i, i + 2000));
  const logs = new Map<number, LoggedReview[]>(cardIds.map((id) => [id, []]));
  for (const row of rows) logs.get(row.card_id)!.push({ rating: row.rating, reviewed_at: row.reviewed_at });
  return { userId, cardIds, logs };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export default async function review(_ctx: BenchContext): Promise<void> {
  const server = await startBenchServer();
  try {
    const person = await server.api<{ id: number }>('POST', '/api/system/users', server.adminToken, { username: 'reviewer', password: 'bench-pass-1', full_name: '复习基准', role: 'employee' });
    for (let i = 0; i < 50; i++) await server.api('POST', '/api/products', server.adminToken, { name: `基准产品 ${i}`, code: `REV-${i}`, category: 'funds', summary: '基准产品简介。' });
    const seeded = await seed(server.db, person.id);
    const token = await server.login('reviewer', 'bench-pass-1');
    const due = await server.api<{ due_count: number; items: unknown[] }>('GET', '/api/review/queue', token);
    console.log(`review queue: ${CARDS} cards, ${CARDS * REVIEWS_PER_CARD} log rows, ${due.due_count} due now, ${due.items.length} drawn (daily limit)`);

    const auth = { authorization: `Bearer ${token}` };
    await load({ url: server.url, path: '/api/products', headers: auth, duration: 2, connections: 8 });
    await load({ url: server.url, path: '/api/review/queue', headers: auth, duration: 2, connections: 8 });
    // Alternating runs, the products baseline measured in the same run as the queue.
    const products = [];
    const queues = [];
    for (let round = 0; round < 2; round++) {
      products.push(await load({ url: server.url, path: '/api/products', headers: auth, duration: 5, connections: 8 }));
      queues.push(await load({ url: server.url, path: '/api/review/queue', headers: auth, duration: 5, connections: 8 }));
    }
    const best = <T extends { p99: number }>(list: T[]) => list.reduce((a, b) => (b.p99 < a.p99 ? b : a));
    const baseline = best(products);
    const queue = best(queues);
    report('GET /api/products (8 conns)', baseline, baseline);
    report('GET /api/review/queue (8 conns)', queue, baseline, 'p99 <= 2x');

    // (2) Rebuild from the log vs ts-fsrs directly on the same log.
    const direct: number[] = [];
    const rebuilt: number[] = [];
    for (let round = 0; round < 5; round++) {
      let started = performance.now();
      let checksum = 0;
      for (const log of seeded.logs.values()) {
        const sorted = [...log].sort((a, b) => (a.reviewed_at < b.reviewed_at ? -1 : 1));
        let card = createEmptyCard(new Date(sorted[0]!.reviewed_at));
        for (const r of sorted) card = scheduler.next(card, new Date(r.reviewed_at), r.rating as Grade).card;
        checksum += card.reps;
      }
      direct.push(performance.now() - started);
      started = performance.now();
      await server.db.transaction((trx) => rebuildCards(trx, scheduler, seeded.cardIds, new Date().toISOString()));
      rebuilt.push(performance.now() - started);
      if (checksum !== CARDS * REVIEWS_PER_CARD) throw new Error('the direct replay lost reviews');
    }
    const stored = (await server.db('review_cards').whereIn('id', seeded.cardIds.slice(0, 50)).select('id', 'due', 'reps')) as { id: number; due: string; reps: number }[];
    for (const row of stored) {
      const expected = replay(scheduler, '2000-01-01T00:00:00.000Z', seeded.logs.get(Number(row.id))!);
      if (expected.due.toISOString() !== row.due || expected.reps !== Number(row.reps)) throw new Error(`card ${row.id} was rebuilt differently from ts-fsrs`);
    }
    const d = median(direct);
    const r = median(rebuilt);
    console.log(`${'ts-fsrs directly on the 50,000-row log'.padEnd(44)} ${d.toFixed(0).padStart(6)} ms (median of 5)`);
    console.log(`${'rebuild 5,000 cards from the log (read+replay+write)'.padEnd(44)} ${r.toFixed(0).padStart(6)} ms (median of 5) = ${(r / d).toFixed(2)}x  [target <= 1.2x]`);
  } finally {
    await server.close();
  }
}
