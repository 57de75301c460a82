// Central: a pushed record graded again from its answers against the question versions it names. Pure.
import { isDeepStrictEqual } from 'node:util';
import type { AnswerDetail } from '../../contract/exams.js';
import type { PushedRecord } from '../../contract/sync.js';
import { grade, parseAnswers, scoreOf, type KeyedQuestion } from '../exams/grading.js';

export interface Regraded {
  score: number;
  correct: number;
  detail: AnswerDetail[];
}

/** The re-grade, or why the record does not match it. `questions` are the central versions, in the record's order. */
export function regrade(record: PushedRecord, questions: KeyedQuestion[]): { regraded: Regraded } | { mismatch: string } {
  const answers = Object.fromEntries(record.answers.map((a, i) => [String(questions[i]!.id), a.user_answer]));
  const { detail, correct } = grade(questions, parseAnswers(questions, answers));
  const count = questions.length;
  const score = scoreOf(record.total_score, correct, count);
  const checks: [string, unknown, unknown][] = [
    ['question_count', record.question_count, count],
    ['correct_count', record.correct_count, correct],
    ['wrong_count', record.wrong_count, count - correct],
    ['score', record.score, score],
    ['passed', record.passed, score >= record.pass_score],
  ];
  for (const [field, sent, expected] of checks) if (sent !== expected) return { mismatch: `${field} is ${String(sent)}, the re-grade gives ${String(expected)}` };
  for (const [i, d] of detail.entries()) {
    const sent = record.answers[i]!;
    if (sent.is_correct !== d.is_correct || !isDeepStrictEqual(sent.correct_answer, d.correct_answer) || !isDeepStrictEqual(sent.user_answer, d.user_answer)) {
      return { mismatch: `the answer to question ${sent.question_gid} (version ${sent.version}) does not grade as sent` };
    }
  }
  return { regraded: { score, correct, detail } };
}
