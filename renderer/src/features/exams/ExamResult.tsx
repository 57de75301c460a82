import { Link } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { Pill } from '../../components/Pill';
import { formatClock } from '../../components/format';
import type { AnswerValue, IssuedQuestion, StartedExam, SubmitResult } from '../../api/types';

/** Option keys as their texts: "A" → "A. Fixed income". */
function describe(question: IssuedQuestion | undefined, value: AnswerValue): string {
  const keys = Array.isArray(value) ? value : value ? [value] : [];
  if (!keys.length) return 'No answer';
  return keys
    .map((key) => {
      const option = question?.options.find((o) => o.key === key);
      if (!option) return key;
      return question?.type === 'true_false' ? option.text : `${key}. ${option.text}`;
    })
    .join('; ');
}

export function ExamResult({ exam, result, onAgain }: { exam: StartedExam; result: SubmitResult; onAgain(): void }) {
  const questions = new Map(exam.questions.map((q) => [q.id, q]));
  return (
    <>
      <PageHeader back={<Link to="/exams">← All exams</Link>} title={result.exam_name} subtitle={result.kind === 'formal' ? 'Your result has been recorded.' : 'Self-test result (not recorded).'} />
      <section className={`panel result-summary ${result.passed ? 'result-passed' : 'result-failed'}`}>
        <div className="result-score">
          <span className="result-number">{result.score}</span>
          <span className="muted">of {result.total_score}</span>
        </div>
        <div className="stack-tight">
          <Pill tone={result.passed ? 'success' : 'danger'}>{result.passed ? 'Passed' : 'Not passed'}</Pill>
          <span>
            {result.correct_count} correct, {result.wrong_count} wrong · pass mark {result.pass_score} · time {formatClock(result.time_spent_sec)}
          </span>
          {result.late && <span className="notice notice-warning">Submitted after the time limit: graded as at the deadline.</span>}
          {result.certificate_id !== null && <span>A certificate has been issued for this exam.</span>}
        </div>
        <div className="result-actions">
          <button type="button" className="button" onClick={onAgain}>
            Back to the exam
          </button>
        </div>
      </section>
      <h2 className="section-title">Answers</h2>
      <ol className="question-list">
        {result.detail.map((d) => {
          const question = questions.get(d.question_id);
          return (
            <li key={d.question_id} className={`panel question ${d.is_correct ? 'answer-correct' : 'answer-wrong'}`}>
              <div className="question-review-head">
                <span>
                  <span className="question-number">{question?.order ?? '?'}.</span> {question?.stem ?? `Question ${d.question_id}`}
                </span>
                <Pill tone={d.is_correct ? 'success' : 'danger'}>{d.is_correct ? 'Correct' : 'Wrong'}</Pill>
              </div>
              <div className="small">Your answer: {describe(question, d.user_answer)}</div>
              {!d.is_correct && <div className="small">Correct answer: {describe(question, d.correct_answer)}</div>}
            </li>
          );
        })}
      </ol>
    </>
  );
}
