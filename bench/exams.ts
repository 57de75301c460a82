import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import type { Knex } from 'knex';
import { load, report, startBenchServer, type BenchContext } from './harness.js';
import { now } from '../server/db/time.js';
import { startExam } from '../server/exams/sessions.service.js';
import { grade, parseAnswers, type KeyedQuestion } from '../server/exams/grading.js';
import type { AnswerMap, ExamPaper, StartedExam } from '../contract/exams.js';
import type { User } from '../contract/users.js';

const QUESTIONS = 100;
const BANK = 150;
/** Sessions started before the load: 5 s of submits at up to 3,000/s, so that no submit replays a used session. */
const SESSIONS = 15_000;
const LOAD_SECONDS = 5;
const CONNECTIONS = 16;
const KEYS = ['A', 'B', 'C', 'D'];

/** Every fourth question is multiple choice (A and C); the others are single choice with a key that cycles. */
const correctKeys = (i: number) => (i % 4 === 3 ? ['A', 'C'] : [KEYS[i % 4]!]);

export async function seedBank(db: Knex): Promise<void> {
  const stamp = now();
  const rows = Array.from({ length: BANK }, (_, i) => ({
    domain: 'bench',
    type: i % 4 === 3 ? 'multiple' : 'single',
    stem: `Bench question ${i}: which option is right?`,
    options: JSON.stringify(KEYS.map((key) => ({ key, text: `Option ${key} of question ${i}` }))),
    answer: JSON.stringify(correctKeys(i)),
    explanation: `Explanation of question ${i}.`,
    status: 'active',
    created_at: stamp,
    updated_at: stamp,
  }));
  await db.batchInsert('questions', rows, 50);
}

/** Four answers in five right (multiple choice given in reverse order), so most submits pass and all write mistakes. */
function answerSheet(session: StartedExam, keyOf: Map<number, string[]>): AnswerMap {
  return Object.fromEntries(
    session.questions.map((q, i) => {
      const key = keyOf.get(q.id)!;
      const right = i % 5 !== 0;
      if (q.type === 'multiple') return [String(q.id), right ? [...key].reverse() : ['B']];
      return [String(q.id), right ? key[0]! : KEYS.find((k) => k !== key[0])!];
    }),
  );
}

/** Sessions started through the real start path on the bench's own connection, as submit bodies. */
export async function preStart(db: Knex, candidate: User, paperId: number, count = SESSIONS): Promise<string[]> {
  const keyOf = new Map<number, string[]>(
    (await db('questions').where({ domain: 'bench' }).select('id', 'answer')).map((r: { id: number; answer: string }) => [Number(r.id), JSON.parse(r.answer)]),
  );
  const bodies: string[] = [];
  while (bodies.length < count) {
    const session = await startExam(db, candidate, paperId);
    bodies.push(JSON.stringify({ session_id: session.session_id, answers: answerSheet(session, keyOf), time_spent_sec: 600 }));
  }
  return bodies;
}

/** In-process validation + grading time per call for n questions, in µs: the best of five rounds, to damp noise. */
function gradingMicros(n: number): number {
  const questions: KeyedQuestion[] = Array.from({ length: n }, (_, i) => ({ id: i + 1, type: i % 4 === 3 ? 'multiple' : 'single', keys: KEYS, answer: correctKeys(i) }));
  const raw = Object.fromEntries(questions.map((q) => [String(q.id), q.type === 'multiple' ? ['C', 'A'] : 'B']));
  const iterations = Math.round(200_000 / n);
  let best = Infinity;
  for (let round = 0; round < 6; round++) {
    const startedAt = performance.now();
    for (let i = 0; i < iterations; i++) grade(questions, parseAnswers(questions, raw));
    if (round > 0) best = Math.min(best, ((performance.now() - startedAt) * 1000) / iterations);
  }
  return best;
}

/** Issue 3: submit of a 100-question formal exam over pre-started sessions, and grading cost against question count. */
export default async function exams({ baselineAt }: BenchContext): Promise<void> {
  const server = await startBenchServer({ seed: seedBank });
  try {
    const paper = await server.api<ExamPaper>('POST', '/api/exam/papers', server.adminToken, {
      name: 'Bench formal exam', type: 'formal', domain: 'bench', question_count: QUESTIONS, total_score: 100, pass_score: 60, duration_minutes: 120, randomize: true,
    });
    const candidate = await server.api<User>('POST', '/api/system/users', server.adminToken, { username: 'candidate', password: 'bench-user-pass', full_name: 'Bench Candidate', department: 'Bench' });
    const token = await server.login('candidate', 'bench-user-pass');
    const startedAt = performance.now();
    const bodies = await preStart(server.db, candidate, paper.id);
    console.log(`  ${bodies.length} sessions of ${QUESTIONS} questions pre-started in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);

    let next = 0;
    const requests: autocannon.Request[] = [{ method: 'POST', path: '/api/exam/submit', setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) }];
    const result = await load({ url: server.url, method: 'POST', path: '/api/exam/submit', headers: { authorization: `Bearer ${token}` }, connections: CONNECTIONS, duration: LOAD_SECONDS, requests });
    const bare = await baselineAt(CONNECTIONS);
    report(`POST /api/exam/submit (${QUESTIONS} q, formal, ${CONNECTIONS} conns)`, result, bare, '>= 1,000 submits/s');
    console.log(`  bare Koa at ${CONNECTIONS} connections: ${bare.rps.toFixed(0)} req/s, p99 ${bare.p99} ms (autocannon reports whole ms)`);
    const records = Number((await server.db('exam_records').count({ count: '*' }).first())?.count);
    const exhausted = records >= bodies.length ? '; the session pool ran out, later requests replayed stored results' : '';
    console.log(`  ${records} records, certificates and mistake-book updates stored in ${LOAD_SECONDS} s${exhausted}`);

    const small = gradingMicros(100);
    const large = gradingMicros(1000);
    console.log(
      `  grading in-process: 100 q ${small.toFixed(1)} µs (${((small / 100) * 1000).toFixed(0)} ns/q), 1,000 q ${large.toFixed(1)} µs (${large.toFixed(0)} ns/q): ` +
        `ratio ${(large / small).toFixed(2)}, linear = 10`,
    );
  } finally {
    await server.close();
  }
}
