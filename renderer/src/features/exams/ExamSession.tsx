import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Checkbox, Flex, Modal, Radio, Space } from 'antd';
import { FlagFilled, FlagOutlined } from '@ant-design/icons';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice } from '../../components/states';
import { formatClock } from '../../i18n/format';
import type { AnswerMap, AnswerValue, IssuedQuestion, StartedExam, SubmitResult } from '../../api/types';
import { useSubmitExam } from './mutations';
import { optionLabel, sessionName } from './standing';
import { LeaveGuard } from './LeaveGuard';
import { useAutosave } from './useAutosave';
import { SaveStatusText } from './SaveStatusText';
import { QuestionNavigator, questionAnchor } from './QuestionNavigator';
import { useLeaveCount } from './useLeaveCount';

const isAnswered = (value: AnswerValue | null | undefined) => (Array.isArray(value) ? value.length > 0 : !!value);

/** Seconds until the deadline (ms on this machine's clock), ticking once a second. */
function useRemaining(deadline: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return Math.max(0, Math.round((deadline - now) / 1000));
}

/** A session opened again (reload, crash, another visit): its answers and the time the server says is left. */
export interface Resumed {
  answers: AnswerMap;
  remainingSec: number;
  /** The answers come from this machine and the server may lack them. */
  unsaved: boolean;
}

/**
 * Answering an exam, a self-test or a retry; the answers are saved as they change (useAutosave), and the session
 * submits itself when the time is up. The clock counts down to the server's deadline, never from the start again.
 */
export function ExamSession({ exam, resumed, onSubmitted }: { exam: StartedExam; resumed?: Resumed; onSubmitted(result: SubmitResult): void }) {
  const { t } = useTranslation();
  const [answers, setAnswers] = useState<AnswerMap>(resumed?.answers ?? {});
  const [confirming, setConfirming] = useState(false);
  const [flagged, setFlagged] = useState<number[]>([]);
  const toggleFlag = (id: number) => setFlagged((ids) => (ids.includes(id) ? ids.filter((f) => f !== id) : [...ids, id]));
  // The server's deadline on this machine's clock: what was left when it answered, from now.
  const [deadline] = useState(() => Date.now() + (resumed ? resumed.remainingSec * 1000 : Date.parse(exam.deadline_at) - Date.parse(exam.started_at)));
  const autosave = useAutosave(exam, { answers: resumed?.answers ?? {}, unsaved: resumed?.unsaved ?? false, resumed: !!resumed });
  const submit = useSubmitExam();
  const leaves = useLeaveCount(exam.session_id, !submit.isSuccess);
  const remaining = useRemaining(deadline);
  const answered = exam.questions.filter((q) => isAnswered(answers[String(q.id)])).length;
  const missing = exam.questions.length - answered;

  const answer = (questionId: number, value: AnswerValue) => {
    const next = { ...answers, [String(questionId)]: value };
    setAnswers(next);
    autosave.change(next);
  };
  const sending = useRef(false);
  const send = async () => {
    if (sending.current) return;
    sending.current = true;
    // The submit carries every answer: a save arriving after it would find the session closed.
    await autosave.hold();
    submit.mutate(
      { sessionId: exam.session_id, answers, timeSpentSec: Math.max(0, exam.time_limit_min * 60 - remaining), leaveCount: leaves.count },
      {
        onSuccess: (result) => {
          autosave.finish();
          leaves.clear();
          onSubmitted(result);
        },
        onError: () => autosave.resume(),
        onSettled: () => void (sending.current = false),
      },
    );
  };

  const autoSubmitted = useRef(false);
  useEffect(() => {
    if (remaining === 0 && !autoSubmitted.current) {
      autoSubmitted.current = true;
      void send();
    }
  });

  const controls = (
    <Button type="primary" loading={submit.isPending} onClick={() => setConfirming(true)}>
      {t('exams.session.submit')}
    </Button>
  );
  const confirm = (
    <Modal
      open={confirming}
      title={t('integrity.confirm.title')}
      okText={t('integrity.confirm.ok')}
      cancelText={t('integrity.confirm.cancel')}
      confirmLoading={submit.isPending}
      onOk={() => {
        setConfirming(false);
        void send();
      }}
      onCancel={() => setConfirming(false)}
    >
      <p>{t('integrity.confirm.summary', { answered, unanswered: missing, flagged: flagged.length })}</p>
      {missing > 0 && <Alert type="warning" showIcon title={t('integrity.confirm.unansweredWarning')} className="section" />}
      <p>{t('integrity.confirm.final')}</p>
    </Modal>
  );
  const navigator = exam.questions.map((q) => ({ id: q.id, order: q.order, state: isAnswered(answers[String(q.id)]) ? ('answered' as const) : ('unanswered' as const), flagged: flagged.includes(q.id) }));

  return (
    <>
      <LeaveGuard active={!submit.isSuccess} />
      <PageHeader
        title={sessionName(exam, t)}
        subtitle={t('exams.session.progress', { answered, count: exam.questions.length, pass: exam.pass_score, total: exam.total_score })}
      />
      {confirm}
      <div className="exam-layout">
        <ol className="question-list">
          {exam.questions.map((question) => (
            <QuestionCard
              key={question.id}
              question={question}
              value={answers[String(question.id)] ?? null}
              onChange={(value) => answer(question.id, value)}
              flag={{ on: flagged.includes(question.id), toggle: () => toggleFlag(question.id) }}
            />
          ))}
        </ol>
        <QuestionNavigator items={navigator} />
      </div>
      {/* Sticks to the bottom of the window: the time left and the submit button stay in sight however long the exam. */}
      <Card className="submit-bar">
        {submit.error && <ErrorNotice error={submit.error} />}
        {leaves.count > 0 && <Alert type="info" showIcon title={t('integrity.leaves.notice', { count: leaves.count })} className="section" />}
        <Flex justify="space-between" align="center" gap="middle" wrap>
          <Flex align="center" gap="small">
            <span>{t('exams.session.timeLeft')}</span>
            <div className={`timer${remaining < 60 ? ' timer-urgent' : ''}`} role="timer" aria-label={t('exams.session.timeLeft')}>
              {formatClock(remaining)}
            </div>
            <SaveStatusText status={autosave.status} />
          </Flex>
          {controls}
        </Flex>
      </Card>
    </>
  );
}

/** One issued question as the trainee answers it (also the admin's preview of a bank question). */
export function QuestionCard({
  question,
  value,
  onChange,
  flag,
}: {
  question: IssuedQuestion;
  value: AnswerValue | null;
  onChange(value: AnswerValue): void;
  /** In a session: the question can be flagged for another look (shown in the navigator). */
  flag?: { on: boolean; toggle(): void };
}) {
  const { t } = useTranslation();
  const multiple = question.type === 'multiple';
  const label = (key: string, text: string) => (question.type === 'true_false' ? text : `${key}. ${text}`);
  const options = question.options.map((o) => ({ value: o.key, label: label(o.key, optionLabel(question.type, o, t)) }));
  return (
    <li id={questionAnchor(question.id)}>
      <Card className={`question${flag?.on ? ' question-flagged' : ''}`}>
        <Flex justify="space-between" align="start" gap="small">
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
          {flag && (
            <Button type="text" size="small" aria-pressed={flag.on} icon={flag.on ? <FlagFilled className="navigator-flag-legend" /> : <FlagOutlined />} onClick={flag.toggle}>
              {t(flag.on ? 'integrity.flag.remove' : 'integrity.flag.add')}
            </Button>
          )}
        </Flex>
      </Card>
    </li>
  );
}
