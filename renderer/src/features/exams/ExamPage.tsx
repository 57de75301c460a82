import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Col, Descriptions, Row, Typography } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { NotFound } from '../../components/NotFound';
import { ErrorNotice, QueryView } from '../../components/states';
import { useIdParam } from '../../components/useIdParam';
import { humanize, useFormat } from '../../i18n/format';
import { SUBMIT_GRACE_SECONDS } from '../../../../contract/exams';
import type { ExamCover, StartedExam, SubmitResult } from '../../api/types';
import { examQueries } from './queries';
import { useStartExam } from './mutations';
import { paperType, standing } from './standing';
import { ExamSession, type Resumed } from './ExamSession';
import { ResumeSession } from './ResumeSession';
import { draftOfPaper } from './drafts';
import { useUser } from '../../app/session';
import { ExamResult } from './ExamResult';

type Stage =
  | { kind: 'cover' }
  | { kind: 'taking'; exam: StartedExam; resumed?: Resumed }
  | { kind: 'result'; exam: StartedExam; result: SubmitResult };

/**
 * One exam: its cover, then the session, then the graded result. A session still open (named by the cover, or a
 * draft kept on this machine) is resumed instead of showing the cover; the draft's session is asked for beside the
 * cover, so a reload costs no extra round trip.
 */
export default function ExamPage() {
  const id = useIdParam();
  const user = useUser();
  const [stage, setStage] = useState<Stage>({ kind: 'cover' });
  // Sessions already resumed or shown on this visit: never resumed again (the cover may still name one while it refreshes).
  const [done, setDone] = useState<string[]>([]);
  const [draft] = useState(() => (id === null ? undefined : draftOfPaper(user.id, id)));
  const cover = useQuery({ ...examQueries.cover(id ?? 0), enabled: id !== null });
  if (id === null) return <NotFound />;
  const toCover = () => setStage({ kind: 'cover' });
  if (stage.kind === 'taking') return <ExamSession key={stage.exam.session_id} exam={stage.exam} resumed={stage.resumed} onSubmitted={(result) => setStage({ kind: 'result', exam: stage.exam, result })} />;
  if (stage.kind === 'result') return <ExamResult exam={stage.exam} result={stage.result} onAgain={toCover} />;

  // The server's open session first; else this machine's draft (its time may have run out while away: then it is submitted).
  const resume = cover.data?.open_session?.session_id ?? draft?.session_id;
  if (resume && !done.includes(resume)) {
    const handled = () => setDone((ids) => [...ids, resume]);
    return (
      <ResumeSession
        key={resume}
        sessionId={resume}
        onTaking={(exam, resumed) => (handled(), setStage({ kind: 'taking', exam, resumed }))}
        onResult={(exam, result) => (handled(), setStage({ kind: 'result', exam, result }))}
        onGone={handled}
      />
    );
  }
  return <QueryView query={cover}>{(data) => <Cover cover={data} onStarted={(exam) => setStage({ kind: 'taking', exam })} />}</QueryView>;
}

/** The rules of the exam, written here in the interface language from the cover's facts. */
function Instructions({ cover }: { cover: ExamCover }) {
  const { t } = useTranslation();
  const format = useFormat();
  const lines = [
    t(cover.randomize ? 'exams.rules.drawnRandom' : 'exams.rules.drawn', { count: cover.question_count, domain: humanize(cover.domain) }),
    t('exams.rules.time', { minutes: cover.duration_minutes, grace: SUBMIT_GRACE_SECONDS }),
    t('exams.rules.score', { total: cover.total_score, pass: cover.pass_score }),
    t('exams.rules.once'),
    t(cover.type === 'formal' ? 'exams.rules.formal' : 'exams.rules.selfTest'),
    t('exams.rules.mistakes'),
    ...(cover.max_attempts === null ? [] : [t('exams.rules.attempts', { count: cover.max_attempts })]),
    ...(cover.opens_at ? [t('integrity.rules.opens', { from: format.dateTime(cover.opens_at) })] : []),
    ...(cover.closes_at ? [t('integrity.rules.closes', { to: format.dateTime(cover.closes_at) })] : []),
    ...(cover.shuffle_options ? [t('integrity.rules.shuffled')] : []),
    t(`integrity.rules.answers.${cover.show_answers ?? 'always'}`),
  ];
  return (
    <ul className="instructions">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

function Cover({ cover, onStarted }: { cover: ExamCover; onStarted(exam: StartedExam): void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const unavailable = (c: ExamCover): string => {
    const now = new Date().toISOString();
    if (c.attempts_left === 0) return t('exams.cover.noAttemptsLeft');
    if (c.opens_at && now < c.opens_at) return t('integrity.cover.notOpen', { from: format.dateTime(c.opens_at) });
    if (c.closes_at && now >= c.closes_at) return t('integrity.cover.closed', { to: format.dateTime(c.closes_at) });
    return t('exams.cover.noQuestions');
  };
  const start = useStartExam();
  const state = standing[cover.status];
  const facts = [
    { key: 'questions', label: t('exams.cover.questions'), children: format.number(cover.question_count) },
    { key: 'time', label: t('exams.cover.timeLimit'), children: format.minutes(cover.duration_minutes) },
    { key: 'pass', label: t('exams.cover.passMark'), children: t('exams.scoreOf', { score: cover.pass_score, total: cover.total_score }) },
    {
      key: 'attempts',
      label: t('exams.cover.attempts'),
      children: cover.attempts_left === null ? t('exams.cover.attemptsUnlimited', { count: cover.attempts }) : t('exams.cover.attemptsLeft', { used: cover.attempts, left: cover.attempts_left }),
    },
    { key: 'best', label: t('exams.cover.best'), children: cover.best_score === null ? t('common.state.none') : format.number(cover.best_score) },
  ];
  return (
    <>
      <PageHeader back={{ to: '/exams', label: t('exams.back') }} title={cover.name} subtitle={t(paperType[cover.type])} actions={<StatusTag tone={state.tone}>{t(state.label)}</StatusTag>} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={15}>
          <Card title={<h2 className="card-heading">{t('exams.cover.beforeStart')}</h2>}>
            {cover.description && <Typography.Paragraph>{cover.description}</Typography.Paragraph>}
            <Instructions cover={cover} />
            {start.error && <ErrorNotice error={start.error} />}
            {!cover.can_start && <Alert type="warning" showIcon title={unavailable(cover)} className="section" />}
            <Button type="primary" disabled={!cover.can_start} loading={start.isPending} onClick={() => start.mutate(cover.id, { onSuccess: onStarted })}>
              {t(cover.type === 'formal' ? 'exams.cover.startExam' : 'exams.cover.startSelfTest', { count: cover.question_count })}
            </Button>
          </Card>
        </Col>
        <Col xs={24} xl={9}>
          <Card title={<h2 className="card-heading">{t('exams.cover.details')}</h2>}>
            <Descriptions column={1} size="small" items={facts} />
          </Card>
        </Col>
      </Row>
    </>
  );
}
