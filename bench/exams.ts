import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import { load, report, startBenchServer, type BenchContext } from './harness.js';
import { now } from '../server/db/time.js';
import { startExam } from '../server/exams/sessions.service.js';
import { grade, parseAnswers, type KeyedQuestion } from '../server/exams/grading.js';
import type { AnswerMap, StartedExam } from '../contract/exams.js';
import type { User } from '../contract/users.js';

const QUESTIONS = 100;
/** Sessions started before the load: more than 5 s of submits at 3,000/s, so that no submit replays a used session. */
const SESSIONS = 15_000;
const LOAD_SECONDS = 5;
const KEYS = ['A', 'B', 'C', 'D'];

/** A bank of single and multiple choice questions; the correct key of question i is derived from i. */
function bankRows(domain: string, count: number) {
  const stamp = now();
  return Array.from({ length: count }, (_, i) => ({
    domain,
    type: i % 4 === 3 ? 'multiple' : 'single',
    stem: `Bench question ${i}: which option is right?`,
    options: JSON.stringify(KEYS.map((key) => ({ key, text: `Option ${key} of question ${i}` }))),
    answer: JSON.stringify(i % 4 === 3 ? ['A', 'C'] : [KEYS[i % 4]]),
    explanation: `Explanation of question ${i}.`,
    status: 'active',
    created_at: stamp,
    updated_at: stamp,
  }));
}

/** About four in five answers right, so most submits pass and every submit writes a record and mistakes. */
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

/** In-process grading time per call for n questions (validation + grading), to show it grows linearly. */
function gradingMicros(n: number): number {
  const questions: KeyedQuestion[] = Array.from({ length: n }, (_, i) => ({ id: i + 1, type: i % 4 === 3 ? 'multiple' : 'single', keys: KEYS, answer: i % 4 === 3 ? ['A', 'C'] : [KEYS[i % 4]!] }));
  const raw = Object.fromEntries(questions.map((q) => [String(q.id), q.type === 'multiple' ? ['C', 'A'] : 'B']));
  const iterations = Math.max(200, Math.round(400_000 / n));
  for (let i = 0; i < iterations / 4; i++) grade(questions, parseAnswers(questions, raw));
  const startedAt = performance.now();
  for (let i = 0; i < iterations; i++) grade(questions, parseAnswers(questions, raw));
  return ((performance.now() - startedAt) * 1000) / iterations;
}

/** Issue 3: submit of a 100-question formal exam over pre-started sessions, and grading cost against question count. */
export default async function exams({ baselineAt }: BenchContext): Promise<void> {
  const server = await startBenchServer();
  try {
    const { db } = server;
    await db.batchInsert('questions', bankRows('bench', 150), 50);
    const keyOf = new Map<number, string[]>(
      (await db('questions').where({ domain: 'bench' }).select('id', 'answer')).map((r: { id: number; answer: string }) => [Number(r.id), JSON.parse(r.answer)]),
    );
    const paper = await server.api<{ id: number }>('POST', '/api/exam/papers', server.adminToken, {
      name: 'Bench formal exam', type: 'formal', domain: 'bench', question_count: QUESTIONS, total_score: 100, pass_score: 60, duration_minutes: 120, randomize: true,
    });
    const candidate = await server.api<User>('POST', '/api/system/users', server.adminToken, { username: 'candidate', password: 'bench-user-pass', full_name: 'Bench Candidate', department: 'Bench' });
    const token = await server.login('candidate', 'bench-user-pass');

    const startedAt = performance.now();
    const bodies: string[] = [];
    const startSessions = async () => {
      for (let started = bodies.length; started < SESSIONS; started = bodies.length) {
        const session = await startExam(db, candidate, paper.id);
        bodies.push(JSON.stringify({ session_id: session.session_id, answers: answerSheet(session, keyOf), time_spent_sec: 600 }));
      }
    };
    await Promise.all([startSessions(), startSessions(), startSessions(), startSessions()]);
    console.log(`  ${bodies.length} sessions pre-started in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);

    let next = 0;
    const requests: autocannon.Request[] = [{ method: 'POST', path: '/api/exam/submit', setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) }];
    const result = await load({ url: server.url, method: 'POST', path: '/api/exam/submit', headers: { authorization: `Bearer ${token}` }, connections: 16, duration: LOAD_SECONDS, requests });
    report(`POST /api/exam/submit (${QUESTIONS} q, formal, 16 conns)`, result, await baselineAt(16), '>= 1,000 submits/s');
    const records = Number((await db('exam_records').count({ count: '*' }).first())?.count);
    const exhausted = records >= bodies.length ? ' (session pool exhausted: later requests replayed stored results)' : '';
    console.log(`  ${records} records stored in ${LOAD_SECONDS} s = ${(records / LOAD_SECONDS).toFixed(0)} stored submits/s${exhausted}`);

    const small = gradingMicros(100);
    const large = gradingMicros(1000);
    console.log(`  grading in-process: 100 q ${small.toFixed(1)} µs, 1,000 q ${large.toFixed(1)} µs, ratio ${(large / small).toFixed(2)} (linear = 10)`);
  } finally {
    await server.close();
  }
}
