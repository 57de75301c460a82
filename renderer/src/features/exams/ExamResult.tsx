import { useEffect } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Flex, Statistic, Typography } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { formatClock } from '../../i18n/format';
import type { StartedExam, SubmitResult } from '../../api/types';
import { sessionName } from './standing';
import { examQueries } from './queries';
import { AnswerCard, answerKeyHidden } from './AnswerCard';

export function ExamResult({ exam, result, onAgain }: { exam: StartedExam; result: SubmitResult; onAgain(): void }) {
  const { t } = useTranslation();
  const questions = new Map(exam.questions.map((q) => [q.id, q]));
  // Asked once the session is submitted (the server refuses before): one request after the submit, no deeper.
  const explained = useQuery(examQueries.explanations(result.session_id));
  const explanations = new Map(explained.data?.map((e) => [e.question_id, e.explanation]));
  // The result replaces the session where the candidate was, often at its bottom: it opens at its top.
  useEffect(() => {
    // Braced: Chromium's scrollTo returns a promise, which React would take for the effect's cleanup.
    window.scrollTo({ top: 0 });
  }, [result.session_id]);
  // A redo of the mistake book goes back to the book (onAgain shows it again: the link alone would stay on its result).
  const redo = result.kind === 'retry';
  const back = redo ? { to: '/mistakes', label: t('exams.result.toMistakes'), onClick: onAgain } : { to: '/exams', label: t('exams.back') };
  return (
    <>
      <PageHeader back={back} title={sessionName(result, t)} subtitle={t(redo ? 'exams.result.redone' : result.kind === 'formal' ? 'exams.result.recorded' : 'exams.result.notRecorded')} />
      <Card className={`section result-summary ${result.passed ? 'result-passed' : 'result-failed'}`}>
        <Flex gap="large" align="center" wrap>
          <Statistic title={t('exams.result.score')} value={result.score} suffix={`/ ${result.total_score}`} />
          <Flex vertical gap={6}>
            <span>
              <StatusTag tone={result.passed ? 'success' : 'danger'}>{t(result.passed ? 'exams.result.passed' : 'exams.result.failed')}</StatusTag>
            </span>
            <Typography.Text>
              {t('exams.result.summary', { correct: result.correct_count, wrong: result.wrong_count, pass: result.pass_score, time: formatClock(result.time_spent_sec) })}
            </Typography.Text>
            {result.late && <Alert type="warning" showIcon title={t('exams.result.late')} />}
            {result.certificate_id !== null && <Link to={`/certificates/${result.certificate_id}`}>{t('exams.result.certificate')}</Link>}
          </Flex>
          <Button onClick={onAgain} className="result-again">
            {t(redo ? 'exams.result.toMistakes' : 'exams.result.again')}
          </Button>
        </Flex>
      </Card>
      <h2 className="section-title">{t('exams.result.answers')}</h2>
      {result.detail.some(answerKeyHidden) && <Alert type="info" showIcon title={t('integrity.hidden.answer')} className="section" />}
      <ol className="question-list" aria-label={t('exams.result.answers')}>
        {result.detail.map((d) => {
          const question = questions.get(d.question_id);
          const answered = question ? { ...question, explanation: explanations.get(d.question_id) } : { order: null, stem: t('exams.result.question', { id: d.question_id }), type: 'single' as const, options: [] };
          return <AnswerCard key={d.question_id} question={answered} detail={d} />;
        })}
      </ol>
    </>
  );
}
