import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Checkbox, Flex, Radio, Space } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice } from '../../components/states';
import { formatClock } from '../../i18n/format';
import type { AnswerMap, AnswerValue, IssuedQuestion, StartedExam, SubmitResult } from '../../api/types';
import { useSubmitExam } from './mutations';
import { optionLabel, sessionName } from './standing';

const isAnswered = (value: AnswerValue | null | undefined) => (Array.isArray(value) ? value.length > 0 : !!value);

/** Seconds until the deadline, ticking once a second. */
function useRemaining(deadlineAt: string): number {
  const deadline = new Date(deadlineAt).getTime();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return Math.max(0, Math.round((deadline - now) / 1000));
}

/** Answering an exam, a self-test or a retry; submits by itself when the time is up. */
export function ExamSession({ exam, onSubmitted }: { exam: StartedExam; onSubmitted(result: SubmitResult): void }) {
  const { t } = useTranslation();
  const [answers, setAnswers] = useState<AnswerMap>({});
  const [confirming, setConfirming] = useState(false);
  const startedAt = useRef(Date.now());
  const submit = useSubmitExam();
  const remaining = useRemaining(exam.deadline_at);
  const answered = exam.questions.filter((q) => isAnswered(answers[String(q.id)])).length;
  const missing = exam.questions.length - answered;

  const send = () =>
    submit.mutate({ sessionId: exam.session_id, answers, timeSpentSec: Math.round((Date.now() - startedAt.current) / 1000) }, { onSuccess: onSubmitted });

  const autoSubmitted = useRef(false);
  useEffect(() => {
    if (remaining === 0 && !autoSubmitted.current) {
      autoSubmitted.current = true;
      send();
    }
  });

  return (
    <>
      <PageHeader
        title={sessionName(exam, t)}
        subtitle={t('exams.session.progress', { answered, count: exam.questions.length, pass: exam.pass_score, total: exam.total_score })}
        actions={
          <div className={`timer${remaining < 60 ? ' timer-urgent' : ''}`} role="timer" aria-label={t('exams.session.timeLeft')}>
            {formatClock(remaining)}
          </div>
        }
      />
      <ol className="question-list">
        {exam.questions.map((question) => (
          <QuestionCard key={question.id} question={question} value={answers[String(question.id)] ?? null} onChange={(value) => setAnswers((a) => ({ ...a, [String(question.id)]: value }))} />
        ))}
      </ol>
      <Card className="submit-bar">
        {submit.error && <ErrorNotice error={submit.error} />}
        {confirming && missing > 0 ? (
          <Flex gap="middle" align="center" wrap>
            <Alert type="warning" showIcon title={t('exams.session.unanswered', { count: missing })} />
            <Button onClick={() => setConfirming(false)}>{t('exams.session.keepAnswering')}</Button>
            <Button type="primary" loading={submit.isPending} onClick={send}>
              {t('exams.session.submitAnyway')}
            </Button>
          </Flex>
        ) : (
          <Button type="primary" loading={submit.isPending} onClick={() => (missing > 0 ? setConfirming(true) : send())}>
            {t('exams.session.submit')}
          </Button>
        )}
      </Card>
    </>
  );
}

function QuestionCard({ question, value, onChange }: { question: IssuedQuestion; value: AnswerValue | null; onChange(value: AnswerValue): void }) {
  const { t } = useTranslation();
  const multiple = question.type === 'multiple';
  const label = (key: string, text: string) => (question.type === 'true_false' ? text : `${key}. ${text}`);
  const options = question.options.map((o) => ({ value: o.key, label: label(o.key, optionLabel(question.type, o, t)) }));
  return (
    <li>
      <Card className="question">
        <fieldset>
          <legend>
            <span className="question-number">{question.order}.</span> {question.stem}
            {multiple && <span className="muted"> {t('exams.session.chooseAll')}</span>}
          </legend>
          {multiple ? (
            // Keep the options' order, so the answer reads the same however it was clicked.
            <Checkbox.Group className="options" value={Array.isArray(value) ? value : []} onChange={(keys) => onChange(question.options.map((o) => o.key).filter((k) => keys.includes(k)))}>
              <Space orientation="vertical">
                {options.map((o) => (
                  <Checkbox key={o.value} value={o.value}>
                    {o.label}
                  </Checkbox>
                ))}
              </Space>
            </Checkbox.Group>
          ) : (
            <Radio.Group className="options" name={`q${question.id}`} value={typeof value === 'string' ? value : undefined} onChange={(event) => onChange(event.target.value as string)}>
              <Space orientation="vertical">
                {options.map((o) => (
                  <Radio key={o.value} value={o.value}>
                    {o.label}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          )}
        </fieldset>
      </Card>
    </li>
  );
}
