import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Space, Typography } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { EmptyState, ErrorNotice, QueryView } from '../../components/states';
import { SimplePager } from '../../components/list/SimplePager';
import { useListParams } from '../../components/list/useListParams';
import { humanize, useFormat } from '../../i18n/format';
import type { MistakeEntry, StartedExam, SubmitResult } from '../../api/types';
import { ExamSession } from '../exams/ExamSession';
import { ExamResult } from '../exams/ExamResult';
import { describeAnswer } from '../exams/standing';
import { answerKeyHidden } from '../exams/AnswerCard';
import { recordQueries } from './queries';
import { useDeleteMistake, useStartRetry } from './mutations';

type Stage = { kind: 'book' } | { kind: 'retrying'; exam: StartedExam } | { kind: 'result'; exam: StartedExam; result: SubmitResult };

/** The mistake book; a retry runs in the same session screen as an exam and marks right answers mastered. */
export default function MistakesPage() {
  const [stage, setStage] = useState<Stage>({ kind: 'book' });
  if (stage.kind === 'retrying') return <ExamSession exam={stage.exam} onSubmitted={(result) => setStage({ kind: 'result', exam: stage.exam, result })} />;
  if (stage.kind === 'result') return <ExamResult exam={stage.exam} result={stage.result} onAgain={() => setStage({ kind: 'book' })} />;
  return <MistakeBook onRetry={(exam) => setStage({ kind: 'retrying', exam })} />;
}

function MistakeBook({ onRetry }: { onRetry(exam: StartedExam): void }) {
  const { t } = useTranslation();
  const { page, setPage } = useListParams({});
  const mistakes = useQuery(recordQueries.mistakes(page));
  const retry = useStartRetry();
  const begin = (questionIds?: number[]) => retry.mutate(questionIds, { onSuccess: onRetry });
  return (
    <>
      <PageHeader
        title={t('records.mistakes.title')}
        subtitle={t('records.mistakes.subtitle')}
        actions={
          <Button type="primary" loading={retry.isPending} onClick={() => begin()}>
            {t('records.mistakes.retryAll')}
          </Button>
        }
      />
      {retry.error && <ErrorNotice error={retry.error} />}
      <QueryView query={mistakes}>
        {(data) =>
          data.items.length ? (
            <>
              <ol className="question-list" aria-label={t('records.mistakes.title')}>
                {data.items.map((entry) => (
                  <MistakeItem key={entry.id} entry={entry} busy={retry.isPending} onRetry={() => begin([entry.question_id])} />
                ))}
              </ol>
              <SimplePager page={data.page} hasNext={data.hasNext} onPage={setPage} />
            </>
          ) : (
            <EmptyState>{t('records.mistakes.empty')}</EmptyState>
          )
        }
      </QueryView>
    </>
  );
}

function MistakeItem({ entry, busy, onRetry }: { entry: MistakeEntry; busy: boolean; onRetry(): void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const remove = useDeleteMistake();
  // A question met on a paper that still hides its key from the trainee: no key, and no retry (docs/api/review.md).
  const keyHidden = answerKeyHidden(entry);
  const retryable = !entry.mastered && entry.question_status === 'active' && !keyHidden;
  return (
    <li aria-label={entry.stem}>
      <Card size="small" className="question">
        <Flex justify="space-between" gap="middle">
          <span>{entry.stem}</span>
          {entry.mastered ? <StatusTag tone="success">{t('records.mistakes.mastered')}</StatusTag> : <StatusTag tone="warning">{t('records.mistakes.missed', { count: entry.wrong_count })}</StatusTag>}
        </Flex>
        <div>{t('records.mistakes.lastWrong', { answer: describeAnswer(entry.type, entry.options, entry.last_wrong_answer, t) })}</div>
        <div>{keyHidden ? t('integrity.hidden.right') : t('exams.answer.right', { answer: describeAnswer(entry.type, entry.options, entry.correct_answer, t) })}</div>
        {entry.explanation && <Typography.Text type="secondary">{entry.explanation}</Typography.Text>}
        <Flex justify="space-between" align="center" gap="middle" className="mistake-foot" wrap>
          <Typography.Text type="secondary">
            {t('records.mistakes.meta', { domain: humanize(entry.domain), date: format.dateTime(entry.last_wrong_at) })}
            {entry.question_status === 'disabled' && ` · ${t('records.mistakes.withdrawn')}`}
          </Typography.Text>
          <Space>
            {retryable && (
              <Button size="small" disabled={busy} onClick={onRetry}>
                {t('records.mistakes.retryOne')}
              </Button>
            )}
            <Button size="small" type="text" loading={remove.isPending} onClick={() => remove.mutate(entry.id)} aria-label={t('records.mistakes.removeNamed', { stem: entry.stem })}>
              {t('common.action.remove')}
            </Button>
          </Space>
        </Flex>
        {remove.error && <ErrorNotice error={remove.error} />}
      </Card>
    </li>
  );
}
