import { useQuery } from '../../app/query';
import { Link } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { Pill } from '../../components/Pill';
import { Facts } from '../../components/Facts';
import { QueryView } from '../../components/states';
import { formatClock, formatDateTime } from '../../components/format';
import type { ExamRecordDetail } from '../../api/types';
import { getRecord, recordKeys } from './api';
import { describeAnswer } from './answers';

export function RecordDetailPage({ id }: { id: number }) {
  const record = useQuery(recordKeys.detail(id), (signal) => getRecord(id, signal));
  return <QueryView query={record}>{(data) => <RecordDetail record={data} />}</QueryView>;
}

function RecordDetail({ record }: { record: ExamRecordDetail }) {
  const facts: [string, string][] = [
    ['Score', `${record.score} of ${record.total_score} (pass mark ${record.pass_score})`],
    ['Correct', `${record.correct_count} of ${record.question_count}`],
    ['Time spent', formatClock(record.time_spent_sec)],
    ['Submitted', formatDateTime(record.submitted_at) + (record.late ? ' (late: graded as at the deadline)' : '')],
  ];
  return (
    <>
      <PageHeader
        back={<Link to="/records">← My records</Link>}
        title={record.exam_name}
        subtitle={record.certificate_id !== null ? 'A certificate was issued for this attempt.' : undefined}
        actions={<Pill tone={record.passed ? 'success' : 'danger'}>{record.passed ? 'Passed' : 'Not passed'}</Pill>}
      />
      <section className="panel">
        <Facts facts={facts} />
      </section>
      <h2 className="section-title">Answers</h2>
      <ol className="question-list" aria-label="Answers">
        {record.detail.map((d) => (
          <li key={d.question_id} className={`panel question ${d.is_correct ? 'answer-correct' : 'answer-wrong'}`}>
            <div className="question-review-head">
              <span>
                <span className="question-number">{d.order}.</span> {d.stem}
              </span>
              <Pill tone={d.is_correct ? 'success' : 'danger'}>{d.is_correct ? 'Correct' : 'Wrong'}</Pill>
            </div>
            <div className="small">Your answer: {describeAnswer(d.type, d.options, d.user_answer)}</div>
            {!d.is_correct && <div className="small">Correct answer: {describeAnswer(d.type, d.options, d.correct_answer)}</div>}
            {d.explanation && <div className="small muted">{d.explanation}</div>}
          </li>
        ))}
      </ol>
    </>
  );
}
