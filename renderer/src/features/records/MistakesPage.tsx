import { useState } from 'react';
import { invalidate, useMutation, useQuery } from '../../app/query';
import { PageHeader } from '../../components/PageHeader';
import { Pill } from '../../components/Pill';
import { Empty, ErrorNotice, QueryView } from '../../components/states';
import { formatDateTime, humanize, plural } from '../../components/format';
import type { MistakeEntry, StartedExam, SubmitResult } from '../../api/types';
import { ExamSession } from '../exams/ExamSession';
import { ExamResult } from '../exams/ExamResult';
import { Pager } from '../review/Pager';
import { deleteMistake, listMistakes, recordKeys, startRetry } from './api';
import { describeAnswer } from './answers';

type Stage = { kind: 'book' } | { kind: 'retrying'; exam: StartedExam } | { kind: 'result'; exam: StartedExam; result: SubmitResult };

/** The mistake book; a retry runs in the same session screen as an exam and marks right answers mastered. */
export function MistakesPage() {
  const [stage, setStage] = useState<Stage>({ kind: 'book' });
  if (stage.kind === 'retrying') {
    return (
      <ExamSession
        exam={stage.exam}
        onSubmitted={(result) => {
          invalidate(recordKeys.all);
          setStage({ kind: 'result', exam: stage.exam, result });
        }}
      />
    );
  }
  if (stage.kind === 'result') return <ExamResult exam={stage.exam} result={stage.result} onAgain={() => setStage({ kind: 'book' })} />;
  return <MistakeBook onRetry={(exam) => setStage({ kind: 'retrying', exam })} />;
}

function MistakeBook({ onRetry }: { onRetry(exam: StartedExam): void }) {
  const [page, setPage] = useState(1);
  const mistakes = useQuery(recordKeys.mistakes(page), (signal) => listMistakes(page, signal));
  const retry = useMutation(startRetry);
  const begin = async (questionIds?: number[]) => {
    const exam = await retry.run(questionIds);
    if (exam) onRetry(exam);
  };
  return (
    <>
      <PageHeader
        title="Mistake book"
        subtitle="Questions you answered wrong. Retry them: a right answer marks the question mastered."
        actions={
          <button type="button" className="button button-primary" disabled={retry.busy} onClick={() => begin()}>
            {retry.busy ? 'Starting…' : 'Retry my mistakes'}
          </button>
        }
      />
      {retry.error && <ErrorNotice error={retry.error} />}
      <QueryView query={mistakes}>
        {(data) =>
          data.items.length ? (
            <>
              <ol className="question-list" aria-label="Mistakes">
                {data.items.map((entry) => (
                  <MistakeItem key={entry.id} entry={entry} busy={retry.busy} onRetry={() => begin([entry.question_id])} />
                ))}
              </ol>
              <Pager page={data} onPage={setPage} />
            </>
          ) : (
            <Empty>No mistakes recorded. Questions you get wrong in exams, self-tests and retries appear here.</Empty>
          )
        }
      </QueryView>
    </>
  );
}

function MistakeItem({ entry, busy, onRetry }: { entry: MistakeEntry; busy: boolean; onRetry(): void }) {
  const remove = useMutation(() => deleteMistake(entry.id), [recordKeys.all]);
  const retryable = !entry.mastered && entry.question_status === 'active';
  return (
    <li className="panel question" aria-label={entry.stem}>
      <div className="question-review-head">
        <span>{entry.stem}</span>
        {entry.mastered ? <Pill tone="success">Mastered</Pill> : <Pill tone="warning">Missed {plural(entry.wrong_count, 'time')}</Pill>}
      </div>
      <div className="small">Your last wrong answer: {describeAnswer(entry.type, entry.options, entry.last_wrong_answer)}</div>
      <div className="small">Correct answer: {describeAnswer(entry.type, entry.options, entry.correct_answer)}</div>
      {entry.explanation && <div className="small muted">{entry.explanation}</div>}
      <div className="mistake-foot">
        <span className="muted small">
          {humanize(entry.domain)} · last missed {formatDateTime(entry.last_wrong_at)}
          {entry.question_status === 'disabled' && ' · question withdrawn'}
        </span>
        <span className="review-buttons">
          {retryable && (
            <button type="button" className="button button-small" disabled={busy} onClick={onRetry}>
              Retry this one
            </button>
          )}
          <button type="button" className="button button-small button-ghost" disabled={remove.busy} onClick={() => remove.run()} aria-label={`Remove “${entry.stem}” from the mistake book`}>
            Remove
          </button>
        </span>
      </div>
      {remove.error && <ErrorNotice error={remove.error} />}
    </li>
  );
}
