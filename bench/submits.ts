// Issue 33, item 3: exam submits with spaced review on. The submit's transaction writes the records and one fact row
// per submit; the review cards are derived after the commit (server/review/pending-events.ts). Each figure counts
// that work: a burst of 2,000 submits (acknowledged, and until their cards are derived) and a sustained run of a
// minute or more (sized from the burst's rate), each as a ratio to the same database doing bare transactions of one
// record and 100 answer rows, in the same run. SQLite, then PostgreSQL when 127.0.0.1:5432 answers (or DATABASE_URL).
import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import fs from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import knexFactory from 'knex';
import pLimit from 'p-limit';
import { load, startBenchServer, type BenchContext, type BenchServer } from './harness.js';
import { answerSheet, bareTransactions, seedBank } from './exams.js';
import type { ExamPaper, StartedExam } from '../contract/exams.js';

const QUESTIONS = 100;
const BURST = 2_000;
const SUSTAINED_SECONDS = 65;
const CANDIDATES = 50;
const CONNECTIONS = 16;
const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

interface Prepared {
  tokens: string[];
  paperId: number;
  keyOf: Map<number, string[]>;
}

async function prepare(server: BenchServer): Promise<Prepared> {
  const paper = await server.api<ExamPaper>('POST', '/api/exam/papers', server.adminToken, {
    name: 'Bench formal exam', type: 'formal', domain: 'bench', question_count: QUESTIONS, total_score: 100, pass_score: 60, duration_minutes: 120, randomize: true, show_answers: 'always',
  });
  const tokens = await Promise.all(
    Array.from({ length: CANDIDATES }, async (_, i) => {
      await server.api('POST', '/api/system/users', server.adminToken, { username: `candidate${i}`, password: 'bench-user-pass', full_name: `考生 ${i}`, department: 'Bench' });
      return server.login(`candidate${i}`, 'bench-user-pass');
    }),
  );
  const keyOf = new Map<number, string[]>(
    (await server.db('questions').where({ domain: 'bench' }).select('id', 'answer')).map((r: { id: number; answer: string }) => [Number(r.id), JSON.parse(r.answer)]),
  );
  return { tokens, paperId: paper.id, keyOf };
}

async function startSessions(server: BenchServer, { tokens, paperId, keyOf }: Prepared, count: number): Promise<{ token: string; body: string }[]> {
  const submits: { token: string; body: string }[] = [];
  const limit = pLimit(CONNECTIONS);
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      limit(async () => {
        const token = tokens[i % CANDIDATES]!;
        const session = await server.api<StartedExam>('POST', '/api/exam/start', token, { paper_id: paperId });
        submits[i] = { token, body: JSON.stringify({ session_id: session.session_id, answers: answerSheet(session, keyOf), time_spent_sec: 600 }) };
      }),
    ),
  );
  return submits;
}

interface Run {
  count: number;
  /** Until the last submit was answered. */
  acknowledged: number;
  /** Until, besides, no submit's review events were left to derive. */
  derived: number;
  p50: number;
  p99: number;
  failed: number;
}

async function submitAll(server: BenchServer, submits: { token: string; body: string }[]): Promise<Run> {
  let next = 0;
  const requests: autocannon.Request[] = [
    {
      method: 'POST',
      path: '/api/exam/submit',
      setupRequest: (req) => {
        const submit = submits[next++ % submits.length]!;
        return { ...req, body: submit.body, headers: { ...req.headers, authorization: `Bearer ${submit.token}` } };
      },
    },
  ];
  const startedAt = performance.now();
  const result = await load({ url: server.url, method: 'POST', path: '/api/exam/submit', connections: CONNECTIONS, amount: submits.length, requests, timeout: 60 });
  const acknowledged = result.seconds;
  while (Number((await server.db('review_pending').count({ count: '*' }).first())?.count) > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const derived = (performance.now() - startedAt) / 1000;
  return { count: submits.length, acknowledged, derived, p50: result.p50, p99: result.p99, failed: result.errors + result.non2xx };
}

/** Bare PostgreSQL doing the same: `count` transactions of one record and 100 answer rows, one after another. */
async function barePostgres(schema: string, count: number): Promise<number> {
  const db = knexFactory({ client: 'pg', connection: POSTGRES_URL, searchPath: [schema], pool: { min: 1, max: 1 } });
  try {
    await db.raw('CREATE TABLE bare_records (id integer PRIMARY KEY, session_id text NOT NULL, user_id integer NOT NULL, score real NOT NULL, submitted_at text NOT NULL)');
    await db.raw('CREATE TABLE bare_answers (record_id integer NOT NULL, question_id integer NOT NULL, is_correct integer NOT NULL, answer text NOT NULL, PRIMARY KEY (record_id, question_id))');
    const rows = Array.from({ length: QUESTIONS }, (_, q) => `(?, ${q + 1}, ${q % 5 ? 1 : 0}, '"B"')`).join(', ');
    const started = performance.now();
    for (let i = 1; i <= count; i++) {
      await db.transaction(async (trx) => {
        await trx.raw('INSERT INTO bare_records (id, session_id, user_id, score, submitted_at) VALUES (?, ?, ?, ?, ?)', [i, `session-${i}`, 1 + (i % CANDIDATES), 80, new Date().toISOString()]);
        await trx.raw(`INSERT INTO bare_answers (record_id, question_id, is_correct, answer) VALUES ${rows}`, Array.from({ length: QUESTIONS }, () => i));
      });
    }
    return (performance.now() - started) / 1000;
  } finally {
    await db.destroy();
  }
}

function describe(label: string, run: Run, baseRate: number): void {
  const acked = run.count / run.acknowledged;
  const derived = run.count / run.derived;
  console.log(
    `${label}: ${run.count} submits  acknowledged ${acked.toFixed(0)}/s (${((acked / baseRate) * 100).toFixed(0)} % of bare)  ` +
      `with their cards derived ${derived.toFixed(0)}/s (${((derived / baseRate) * 100).toFixed(0)} % of bare)  p50 ${run.p50} ms  p99 ${run.p99} ms` +
      `${run.failed ? `  FAILED ${run.failed}` : ''}`,
  );
}

async function measure(engine: 'SQLite' | 'PostgreSQL'): Promise<void> {
  const schema = engine === 'PostgreSQL' ? `bench_${crypto.randomBytes(4).toString('hex')}` : undefined;
  const env = schema ? { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema } : {};
  const server = await startBenchServer({ seed: seedBank, env });
  try {
    const prepared = await prepare(server);
    const burst = await submitAll(server, await startSessions(server, prepared, BURST));
    const sustainedCount = Math.max(BURST, Math.ceil((BURST / burst.derived) * SUSTAINED_SECONDS));
    const sustained = await submitAll(server, await startSessions(server, prepared, sustainedCount));
    const records = Number((await server.db('exam_records').count({ count: '*' }).first())?.count);
    const cards = Number((await server.db('review_cards').count({ count: '*' }).first())?.count);

    const baseSeconds = schema ? await barePostgres(schema, BURST) : await bareTransactions(path.join(server.dataDir, 'baseline.sqlite'), BURST);
    if (!schema) await fs.rm(path.join(server.dataDir, 'baseline.sqlite'), { force: true });
    const baseRate = BURST / baseSeconds;
    console.log(`${engine}: bare transactions of 1 record + ${QUESTIONS} answer rows  ${baseRate.toFixed(0)} tx/s`);
    describe(`  burst`, burst, baseRate);
    describe(`  sustained (${sustained.derived.toFixed(0)} s)`, sustained, baseRate);
    console.log(`  ${records} records (expected ${burst.count + sustained.count}), ${cards} review cards  [target: SQLite >= 1,000/s on a quiet machine and >= 60 % of bare]`);
  } finally {
    await server.close();
    if (schema) {
      const admin = knexFactory({ client: 'pg', connection: POSTGRES_URL });
      for (const each of [schema, `${schema}_jobs`]) await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [each]);
      await admin.destroy();
    }
  }
}

export default async function submits(_ctx: BenchContext): Promise<void> {
  await measure('SQLite');
  if (process.env.DATABASE_URL || (await reachable(5432))) await measure('PostgreSQL');
  else console.log('PostgreSQL: not reachable on 127.0.0.1:5432, skipped');
}
