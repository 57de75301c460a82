// Shared arrangement for the exam test files: question bank, papers and answer sheets built over the API.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { TestServer } from '../support/server.js';
import type { AnswerMap, AnswerValue, ExamPaperAdmin, IssuedQuestion, Question, StartedExam, SubmitResult } from '../../contract/exams.js';

export const uniqueDomain = (label: string) => `${label}_${crypto.randomBytes(3).toString('hex')}`;

const OPTIONS = ['A', 'B', 'C', 'D'].map((key) => ({ key, text: `Option ${key}` }));

/** A valid question body of the given type; fields override. */
export function questionBody(domain: string, type: Question['type'] = 'single', fields: Record<string, unknown> = {}): Record<string, unknown> {
  const byType = {
    single: { options: OPTIONS, answer: ['B'] },
    multiple: { options: OPTIONS, answer: ['A', 'C'] },
    true_false: { options: [{ key: 'true', text: 'True' }, { key: 'false', text: 'False' }], answer: ['true'] },
  }[type];
  return { domain, course_id: null, type, stem: `A ${type} question of ${domain}?`, explanation: 'Because.', ...byType, ...fields };
}

export async function addQuestion(ts: TestServer, body: Record<string, unknown>): Promise<Question> {
  const res = await ts.api.post('/api/exam/questions', { token: ts.adminToken, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data as Question;
}

/** `count` questions cycling through single, multiple and true_false. */
export async function addQuestions(ts: TestServer, domain: string, count: number): Promise<Question[]> {
  const types: Question['type'][] = ['single', 'multiple', 'true_false'];
  const questions: Question[] = [];
  for (let i = 0; i < count; i++) questions.push(await addQuestion(ts, questionBody(domain, types[i % 3])));
  return questions;
}

export async function addPaper(ts: TestServer, fields: Record<string, unknown>): Promise<ExamPaperAdmin> {
  const body = { name: 'Paper', type: 'formal', question_count: 3, total_score: 100, pass_score: 60, duration_minutes: 30, randomize: false, ...fields };
  const res = await ts.api.post('/api/exam/papers', { token: ts.adminToken, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data as ExamPaperAdmin;
}

export async function start(ts: TestServer, token: string, paperId: number): Promise<StartedExam> {
  const res = await ts.api.post('/api/exam/start', { token, body: { paper_id: paperId } });
  assert.equal(res.status, 200, res.text);
  return res.body.data as StartedExam;
}

export async function submit(ts: TestServer, token: string, sessionId: string, answers: AnswerMap, time_spent_sec = 42): Promise<SubmitResult> {
  const res = await ts.api.post('/api/exam/submit', { token, body: { session_id: sessionId, answers, time_spent_sec } });
  assert.equal(res.status, 200, res.text);
  return res.body.data as SubmitResult;
}

/** The rule 2.3.2 encoding of a question's correct answer. */
export const correctAnswer = (q: Question): AnswerValue => (q.type === 'multiple' ? [...q.answer] : q.answer[0]!);

/** A valid answer that is wrong. */
export function wrongAnswer(q: Question): AnswerValue {
  if (q.type === 'multiple') return [q.options.find((o) => !q.answer.includes(o.key))!.key];
  return q.options.find((o) => o.key !== q.answer[0])!.key;
}

/** An answer sheet for the issued questions: those in `rightIds` answered correctly, the others wrongly. */
export function answerSheet(issued: IssuedQuestion[], bank: Question[], rightIds: (id: number) => boolean): AnswerMap {
  const byId = new Map(bank.map((q) => [q.id, q]));
  return Object.fromEntries(issued.map((iq) => {
    const q = byId.get(iq.id)!;
    return [String(q.id), rightIds(q.id) ? correctAnswer(q) : wrongAnswer(q)];
  }));
}

export const allRight = (issued: IssuedQuestion[], bank: Question[]) => answerSheet(issued, bank, () => true);
