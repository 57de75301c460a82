import type { ExamRecord } from '../../api/types';
import { Link } from '../../app/router';
import { Pill } from '../../components/Pill';
import { formatClock, formatDateTime } from '../../components/format';

/** Exam records as a table; `showPerson` adds who sat the exam (the admin view of everyone's records). */
export function RecordsTable({ records, showPerson = false }: { records: ExamRecord[]; showPerson?: boolean }) {
  return (
    <div className="panel panel-flush">
      <table className="table" aria-label="Exam records">
        <thead>
          <tr>
            {showPerson && <th>Person</th>}
            <th>Exam</th>
            <th>Submitted</th>
            <th>Score</th>
            <th>Correct</th>
            <th>Time</th>
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.id}>
              {showPerson && (
                <td>
                  {record.full_name || record.username}
                  <div className="muted small">
                    {record.username}
                    {record.department ? ` · ${record.department}` : ''}
                  </div>
                </td>
              )}
              <td>
                <Link to={`/records/${record.id}`}>{record.exam_name}</Link>
                {record.late && <div className="muted small">Submitted late</div>}
              </td>
              <td>{formatDateTime(record.submitted_at)}</td>
              <td>
                {record.score} / {record.total_score}
              </td>
              <td>
                {record.correct_count} of {record.question_count}
              </td>
              <td>{formatClock(record.time_spent_sec)}</td>
              <td>
                <Pill tone={record.passed ? 'success' : 'danger'}>{record.passed ? 'Passed' : 'Not passed'}</Pill>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
