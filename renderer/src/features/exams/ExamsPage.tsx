import { useQuery } from '../../app/query';
import { Link } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { Pill } from '../../components/Pill';
import { Empty, QueryView } from '../../components/states';
import { humanize } from '../../components/format';
import { examKeys, listExams } from './api';
import { paperTypeLabel, standingLabel } from './standing';

export function ExamsPage() {
  const exams = useQuery(examKeys.list, listExams);
  return (
    <>
      <PageHeader title="Exams" subtitle="Formal exams count towards your certificates; self-tests are for practice." />
      <QueryView query={exams}>
        {(items) =>
          items.length ? (
            <div className="panel panel-flush">
              <table className="table" aria-label="Exams">
                <thead>
                  <tr>
                    <th>Exam</th>
                    <th>Type</th>
                    <th>Questions</th>
                    <th>Time</th>
                    <th>Pass mark</th>
                    <th>Best score</th>
                    <th>Status</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((exam) => {
                    const [label, tone] = standingLabel[exam.status];
                    return (
                      <tr key={exam.id}>
                        <td>
                          <Link to={`/exams/${exam.id}`}>{exam.name}</Link>
                          <div className="muted small">{humanize(exam.domain)}</div>
                        </td>
                        <td>{paperTypeLabel(exam.type)}</td>
                        <td>{exam.question_count}</td>
                        <td>{exam.duration_minutes} min</td>
                        <td>
                          {exam.pass_score} / {exam.total_score}
                        </td>
                        <td>{exam.best_score ?? '—'}</td>
                        <td>
                          <Pill tone={tone}>{label}</Pill>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          ) : (
            <Empty>No exams are open to you right now.</Empty>
          )
        }
      </QueryView>
    </>
  );
}
