import { useEffect, useRef, useState } from 'react';
import { useMutation } from '../../app/query';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice } from '../../components/states';
import { formatClock, plural } from '../../components/format';
import type { AnswerMap, AnswerValue, IssuedQuestion, StartedExam, SubmitResult } from '../../api/types';
import { submitExam } from './api';

const isAnswered = (value: AnswerValue | null | undefined) => (Array.isArray(value) ? value.length > 0 : !!value);

/** Seconds until the deadline, ticking once a second; submits by itself when time is up. */
function useRemaining(deadlineAt: string): number {
  const deadline = new Date(deadlineAt).getTime();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return Math.max(0, Math.round((deadline - now) / 1000));
}

export function ExamSession({ exam, onSubmitted }: { exam: StartedExam; onSubmitted(result: SubmitResult): void }) {
  const [answers, setAnswers] = useState<AnswerMap>({});
  const [confirming, setConfirming] = useState(false);
  const startedAt = useRef(Date.now());
  const submit = useMutation(submitExam);
  const remaining = useRemaining(exam.deadline_at);
  const answered = exam.questions.filter((q) => isAnswered(answers[String(q.id)])).length;
  const missing = exam.questions.length - answered;

  const send = async () => {
    const spent = Math.round((Date.now() - startedAt.current) / 1000);
    const result = await submit.run(exam.session_id, answers, spent);
    if (result) onSubmitted(result);
  };

  const autoSubmitted = useRef(false);
  useEffect(() => {
    if (remaining === 0 && !autoSubmitted.current) {
      autoSubmitted.current = true;
      void send();
    }
  });

  return (
    <>
      <PageHeader
        title={exam.exam_name}
        subtitle={`${answered} of ${plural(exam.questions.length, 'question')} answered · pass mark ${exam.pass_score} of ${exam.total_score}`}
        actions={
          <div className={`timer${remaining < 60 ? ' timer-urgent' : ''}`} role="timer" aria-label="Time left">
            {formatClock(remaining)}
          </div>
        }
      />
      <ol className="question-list">
        {exam.questions.map((question) => (
          <QuestionCard key={question.id} question={question} value={answers[String(question.id)] ?? null} onChange={(value) => setAnswers((a) => ({ ...a, [String(question.id)]: value }))} />
        ))}
      </ol>
      <div className="submit-bar">
        {submit.error && <ErrorNotice error={submit.error} />}
        {confirming && missing > 0 ? (
          <>
            <span className="notice notice-warning">{plural(missing, 'question')} not answered. Unanswered questions count as wrong.</span>
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              Keep answering
            </button>
            <button type="button" className="button button-primary" disabled={submit.busy} onClick={send}>
              Submit anyway
            </button>
          </>
        ) : (
          <button type="button" className="button button-primary" disabled={submit.busy} onClick={() => (missing > 0 ? setConfirming(true) : send())}>
            {submit.busy ? 'Submitting…' : 'Submit answers'}
          </button>
        )}
      </div>
    </>
  );
}

function QuestionCard({ question, value, onChange }: { question: IssuedQuestion; value: AnswerValue | null; onChange(value: AnswerValue): void }) {
  const multiple = question.type === 'multiple';
  const selected = new Set(Array.isArray(value) ? value : value ? [value] : []);
  const toggle = (key: string) => {
    if (!multiple) return onChange(key);
    const next = new Set(selected);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    // Keep the options' order, so the answer reads the same however it was clicked.
    onChange(question.options.map((o) => o.key).filter((k) => next.has(k)));
  };
  return (
    <li className="panel question">
      <fieldset>
        <legend>
          <span className="question-number">{question.order}.</span> {question.stem}
          {multiple && <span className="muted small"> (choose all that apply)</span>}
        </legend>
        {question.options.map((option) => (
          <label key={option.key} className={`option${selected.has(option.key) ? ' option-selected' : ''}`}>
            <input type={multiple ? 'checkbox' : 'radio'} name={`q${question.id}`} value={option.key} checked={selected.has(option.key)} onChange={() => toggle(option.key)} />
            <span className="option-key">{question.type === 'true_false' ? '' : option.key}</span>
            <span>{option.text}</span>
          </label>
        ))}
      </fieldset>
    </li>
  );
}
