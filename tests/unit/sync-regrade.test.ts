// The central server's re-grade of a pushed record and the branch's central URL rule, without servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { regrade } from '../../server/sync/regrade.js';
import { checkCentral } from '../../server/sync/branch/central-client.js';
import type { KeyedQuestion } from '../../server/exams/grading.js';
import type { PushedRecord } from '../../contract/sync.js';

const questions: KeyedQuestion[] = [
  { id: 11, type: 'single', keys: ['A', 'B', 'C'], answer: ['B'], version: 1 },
  { id: 12, type: 'multiple', keys: ['A', 'B', 'C'], answer: ['A', 'C'], version: 3 },
  { id: 13, type: 'true_false', keys: ['true', 'false'], answer: ['true'], version: 2 },
];

const record = (fields: Partial<PushedRecord> = {}): PushedRecord => ({
  gid: '00000000-0000-4000-8000-000000000001', session_id: 's', user_gid: 'u', paper_gid: 'p', exam_name: 'E', score: 66.67, total_score: 100,
  pass_score: 60, passed: true, correct_count: 2, wrong_count: 1, question_count: 3, time_spent_sec: 10, late: false, duration_minutes: 30,
  started_at: '2026-01-01T00:00:00.000Z', submitted_at: '2026-01-01T00:05:00.000Z', certificate_gid: null,
  answers: [
    { question_gid: 'q1', version: 1, user_answer: 'B', is_correct: true, correct_answer: 'B' },
    { question_gid: 'q2', version: 3, user_answer: ['A', 'C'], is_correct: true, correct_answer: ['A', 'C'] },
    { question_gid: 'q3', version: 2, user_answer: 'false', is_correct: false, correct_answer: 'true' },
  ],
  ...fields,
});

test('an honest record re-grades to the same score', () => {
  const result = regrade(record(), questions);
  assert.ok('regraded' in result);
  assert.equal(result.regraded.score, 66.67);
  assert.equal(result.regraded.correct, 2);
});

test('a changed score, pass, count or answer grading is a mismatch', () => {
  for (const tampered of [
    record({ score: 100 }),
    record({ passed: false }),
    record({ correct_count: 3, wrong_count: 0 }),
    record({ question_count: 4 }),
    record({ answers: record().answers.map((a, i) => (i === 2 ? { ...a, is_correct: true } : a)) }),
    record({ answers: record().answers.map((a, i) => (i === 0 ? { ...a, correct_answer: 'A' } : a)) }),
  ]) {
    assert.ok('mismatch' in regrade(tampered, questions), JSON.stringify(tampered).slice(0, 80));
  }
});

test('the central URL must be https, or http on loopback, without credentials; an extra CA must be PEM', () => {
  assert.equal(checkCentral('https://hq.example.com/'), 'https://hq.example.com');
  assert.equal(checkCentral('http://127.0.0.1:3210'), 'http://127.0.0.1:3210');
  assert.equal(checkCentral('http://localhost:3210/tb/'), 'http://localhost:3210/tb');
  for (const bad of ['http://hq.example.com', 'http://10.0.0.1', 'ftp://hq', 'https://user:pw@hq.example.com', 'not a url', 'https://hq?x=1']) {
    assert.throws(() => checkCentral(bad), /central/i, bad);
  }
  assert.throws(() => checkCentral('https://hq.example.com', 'not pem'), /PEM/);
});
