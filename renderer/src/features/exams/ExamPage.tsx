import { useState } from 'react';
import { invalidate, useMutation, useQuery } from '../../app/query';
import { Link } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { Facts } from '../../components/Facts';
import { Pill } from '../../components/Pill';
import { ErrorNotice, QueryView } from '../../components/states';
import { plural } from '../../components/format';
import type { ExamCover, StartedExam, SubmitResult } from '../../api/types';
import { examKeys, getExamCover, startExam } from './api';
import { paperTypeLabel, standingLabel } from './standing';
import { ExamSession } from './ExamSession';
import { ExamResult } from './ExamResult';

type Stage = { kind: 'cover' } | { kind: 'taking'; exam: StartedExam } | { kind: 'result'; exam: StartedExam; result: SubmitResult };

/** One exam: its cover, then the session, then the graded result. */
export function ExamPage({ id }: { id: number }) {
  const [stage, setStage] = useState<Stage>({ kind: 'cover' });
  const cover = useQuery(examKeys.cover(id), (signal) => getExamCover(id, signal));

  if (stage.kind === 'taking') {
    return (
      <ExamSession
        exam={stage.exam}
        onSubmitted={(result) => {
          invalidate(examKeys.all);
          setStage({ kind: 'result', exam: stage.exam, result });
        }}
      />
    );
  }
  if (stage.kind === 'result') return <ExamResult exam={stage.exam} result={stage.result} onAgain={() => setStage({ kind: 'cover' })} />;
  return <QueryView query={cover}>{(data) => <Cover cover={data} onStarted={(exam) => setStage({ kind: 'taking', exam })} />}</QueryView>;
}

function Cover({ cover, onStarted }: { cover: ExamCover; onStarted(exam: StartedExam): void }) {
  const start = useMutation(startExam);
  const [label, tone] = standingLabel[cover.status];
  const facts: [string, string][] = [
    ['Questions', String(cover.question_count)],
    ['Time limit', `${cover.duration_minutes} minutes`],
    ['Pass mark', `${cover.pass_score} of ${cover.total_score}`],
    ['Attempts', cover.attempts_left === null ? `${cover.attempts} so far (no limit)` : `${cover.attempts} used, ${cover.attempts_left} left`],
    ['Best score', cover.best_score === null ? '—' : String(cover.best_score)],
  ];
  return (
    <>
      <PageHeader back={<Link to="/exams">← All exams</Link>} title={cover.name} subtitle={paperTypeLabel(cover.type)} actions={<Pill tone={tone}>{label}</Pill>} />
      <div className="detail-layout">
        <section className="panel">
          <h2 className="panel-title">Before you start</h2>
          {cover.description && <p>{cover.description}</p>}
          {cover.instructions.length > 0 && (
            <ul>
              {cover.instructions.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
          {start.error && <ErrorNotice error={start.error} />}
          {!cover.can_start && cover.unavailable_reason && <div className="notice notice-warning">{cover.unavailable_reason}</div>}
          <button
            type="button"
            className="button button-primary"
            disabled={!cover.can_start || start.busy}
            onClick={async () => {
              const exam = await start.run(cover.id);
              if (exam) onStarted(exam);
            }}
          >
            {start.busy ? 'Starting…' : `Start ${cover.type === 'formal' ? 'exam' : 'self-test'} (${plural(cover.question_count, 'question')})`}
          </button>
        </section>
        <aside className="panel">
          <h2 className="panel-title">Details</h2>
          <Facts facts={facts} />
        </aside>
      </div>
    </>
  );
}
