// A review session: draws today's due cards once, shows each (a question to answer, or a practice item to recall and
// rate), then its answer and explanation, and ends with when the next review is due. The due questions can also be
// taken as one self-test paper ("按遗忘曲线组卷").
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Flex, Progress, Result, Space, Typography } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorNotice, QueryView } from '../../components/states';
import { StatusTag } from '../../components/StatusTag';
import { useFormat } from '../../i18n/format';
import type { AnswerValue, QueueItem, ReviewAnswerResult, ReviewQueue, SelfRating, StartedExam, SubmitResult } from '../../api/types';
import { QuestionCard } from '../exams/ExamSession';
import { ExamSession } from '../exams/ExamSession';
import { ExamResult } from '../exams/ExamResult';
import { describeAnswer } from '../exams/standing';
import { reviewKeys, reviewQueries, useAnswerCard, useDueSelfTest } from './queries';

const RATINGS: SelfRating[] = ['again', 'hard', 'good', 'easy'];

type Stage = { kind: 'review' } | { kind: 'test'; exam: StartedExam } | { kind: 'tested'; exam: StartedExam; result: SubmitResult };

export default function ReviewSessionPage() {
  const [stage, setStage] = useState<Stage>({ kind: 'review' });
  const queryClient = useQueryClient();
  if (stage.kind === 'test') {
    return (
      <ExamSession
        exam={stage.exam}
        onSubmitted={(result) => {
          void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
          setStage({ kind: 'tested', exam: stage.exam, result });
        }}
      />
    );
  }
  if (stage.kind === 'tested') return <ExamResult exam={stage.exam} result={stage.result} onAgain={() => setStage({ kind: 'review' })} />;
  return <ReviewDeck onSelfTest={(exam) => setStage({ kind: 'test', exam })} />;
}

function ReviewDeck({ onSelfTest }: { onSelfTest(exam: StartedExam): void }) {
  const { t } = useTranslation();
  const queue = useQuery(reviewQueries.queue());
  // The cards drawn when the session opened: answering them refreshes the queue, which must not redraw the deck.
  const drawn = useRef<ReviewQueue | null>(null);
  if (!drawn.current && queue.data && !queue.isFetching) drawn.current = queue.data;
  const selfTest = useDueSelfTest();
  const hasQuestions = !!drawn.current?.items.some((i) => i.kind === 'question');
  return (
    <>
      <PageHeader
        title={t('spacedReview.session.title')}
        subtitle={t('spacedReview.session.subtitle')}
        actions={
          hasQuestions && (
            <Button loading={selfTest.isPending} onClick={() => selfTest.mutate(undefined, { onSuccess: onSelfTest })} title={t('spacedReview.session.selfTestHint')}>
              {t('spacedReview.session.selfTest')}
            </Button>
          )
        }
      />
      {selfTest.error && <ErrorNotice error={selfTest.error} />}
      {drawn.current ? (
        drawn.current.items.length ? (
          <Deck queue={drawn.current} />
        ) : (
          <EmptyState>{t('spacedReview.session.nothing')}</EmptyState>
        )
      ) : (
        <QueryView query={queue}>{() => null}</QueryView>
      )}
    </>
  );
}

/** The cards drawn at the start, one at a time; the queue is not read again until the end. */
function Deck({ queue }: { queue: ReviewQueue }) {
  const [items] = useState(queue.items);
  const [index, setIndex] = useState(0);
  const [results, setResults] = useState<ReviewAnswerResult[]>([]);
  if (index >= items.length) return <Finished results={results} />;
  const item = items[index]!;
  return (
    <ReviewCard
      key={item.card_id}
      item={item}
      position={{ current: index + 1, total: items.length }}
      onAnswered={(result) => setResults((r) => [...r, result])}
      onNext={() => setIndex((i) => i + 1)}
    />
  );
}

function ReviewCard({ item, position, onAnswered, onNext }: { item: QueueItem; position: { current: number; total: number }; onAnswered(result: ReviewAnswerResult): void; onNext(): void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [value, setValue] = useState<AnswerValue | null>(null);
  const [revealed, setRevealed] = useState(false);
  const [result, setResult] = useState<ReviewAnswerResult | null>(null);
  const answer = useAnswerCard();
  const send = (body: Parameters<typeof answer.mutate>[0]) =>
    answer.mutate(body, {
      onSuccess: (r) => {
        setResult(r);
        onAnswered(r);
      },
    });
  const last = position.current === position.total;
  return (
    <section aria-label={t('spacedReview.session.progress', position)} className="review-card">
      <Flex align="center" gap="middle" className="section">
        <Typography.Text strong>{t('spacedReview.session.progress', position)}</Typography.Text>
        <Progress percent={Math.round(((position.current - 1) / position.total) * 100)} showInfo={false} style={{ flex: 1, maxWidth: 320 }} />
      </Flex>
      {item.question ? (
        <ol className="question-list" aria-label={t('spacedReview.session.question')}>
          <QuestionCard question={{ ...item.question, order: position.current }} value={value} onChange={(v) => !result && setValue(v)} />
        </ol>
      ) : (
        <Card className="question" title={t('spacedReview.session.practice')}>
          <Typography.Title level={4} style={{ marginTop: 0 }}>
            {item.practice?.title}
          </Typography.Title>
          {item.practice?.detail && <Typography.Paragraph>{item.practice.detail}</Typography.Paragraph>}
        </Card>
      )}
      {answer.error && <ErrorNotice error={answer.error} />}
      {result ? (
        <Card className="section review-feedback">
          <Space orientation="vertical" size="small" style={{ width: '100%' }}>
            {result.correct !== null && <StatusTag tone={result.correct ? 'success' : 'danger'}>{t(result.correct ? 'spacedReview.session.right' : 'spacedReview.session.wrong')}</StatusTag>}
            <Typography.Text strong>
              {t('spacedReview.session.correctAnswer', {
                answer: item.question ? describeAnswer(item.question.type, item.question.options, result.correct_answer, t) : String(result.correct_answer),
              })}
            </Typography.Text>
            {result.explanation && (
              <div>
                <Typography.Text type="secondary">{t('spacedReview.session.explanation')}</Typography.Text>
                <Typography.Paragraph className="review-explanation">{result.explanation}</Typography.Paragraph>
              </div>
            )}
            <Typography.Text type="secondary">{t('spacedReview.session.nextDue', { date: format.dateTime(result.card.due) })}</Typography.Text>
            <Button type="primary" onClick={onNext}>
              {t(last ? 'spacedReview.session.finish' : 'spacedReview.session.next')}
            </Button>
          </Space>
        </Card>
      ) : item.question ? (
        <Flex gap="middle" align="center" className="section">
          <Button type="primary" loading={answer.isPending} disabled={value === null || (Array.isArray(value) && !value.length)} onClick={() => send({ card_id: item.card_id, answer: value! })}>
            {t('spacedReview.session.submit')}
          </Button>
          {value === null && <Typography.Text type="secondary">{t('spacedReview.session.chooseAnswer')}</Typography.Text>}
        </Flex>
      ) : revealed ? (
        <>
          {item.practice && <PracticeAnswer practice={item.practice} />}
          <PracticeRating busy={answer.isPending} onRate={(rating) => send({ card_id: item.card_id, rating })} />
        </>
      ) : (
        <Button type="primary" className="section" onClick={() => setRevealed(true)}>
          {t('spacedReview.session.showAnswer')}
        </Button>
      )}
    </section>
  );
}

/** What a practice card is checked against, shown by 显示答案 before the trainee rates their recall. */
function PracticeAnswer({ practice }: { practice: NonNullable<QueueItem['practice']> }) {
  const { t } = useTranslation();
  return (
    <Card className="section review-feedback" aria-label={t('spacedReview.session.showAnswer')}>
      {practice.correct && <Typography.Paragraph strong>{t('spacedReview.session.correctAnswer', { answer: practice.correct })}</Typography.Paragraph>}
      {practice.explanation && (
        <div>
          <Typography.Text type="secondary">{t('spacedReview.session.explanation')}</Typography.Text>
          <Typography.Paragraph className="review-explanation">{practice.explanation}</Typography.Paragraph>
        </div>
      )}
      {!practice.correct && !practice.explanation && <Typography.Paragraph type="secondary">{t('spacedReview.session.recallOnly')}</Typography.Paragraph>}
    </Card>
  );
}

function PracticeRating({ busy, onRate }: { busy: boolean; onRate(rating: SelfRating): void }) {
  const { t } = useTranslation();
  return (
    <Card className="section">
      <Typography.Paragraph>{t('spacedReview.session.rateIt')}</Typography.Paragraph>
      <Space wrap>
        {RATINGS.map((rating) => (
          <Button key={rating} disabled={busy} onClick={() => onRate(rating)}>
            {t(`spacedReview.rating.${rating}`)}
          </Button>
        ))}
      </Space>
    </Card>
  );
}

function Finished({ results }: { results: ReviewAnswerResult[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const queue = useQuery(reviewQueries.queue());
  const dues = [...results.map((r) => r.card.due), ...(queue.data?.next_due ? [queue.data.next_due] : [])];
  const next = dues.length ? dues.reduce((a, b) => (a < b ? a : b)) : null;
  const right = results.filter((r) => r.correct === true || (r.correct === null && r.rating !== 'again')).length;
  return (
    <Result
      status="success"
      title={t('spacedReview.session.doneTitle')}
      subTitle={
        <>
          <div>{t('spacedReview.session.doneSummary', { count: results.length, right })}</div>
          <div className="review-next-due">{next ? t('spacedReview.session.doneNext', { date: format.dateTime(next) }) : t('spacedReview.session.doneNoNext')}</div>
          {!!queue.data?.items.length && <Alert type="info" showIcon className="section" title={t('spacedReview.home.count', { count: queue.data.items.length })} />}
        </>
      }
      extra={
        <Link to="/">
          <Button type="primary">{t('spacedReview.session.back')}</Button>
        </Link>
      }
    />
  );
}
