import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Typography, type TableColumnsType } from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { StatusTag } from '../../components/StatusTag';
import { DataTable } from '../../components/list/DataTable';
import type { ListPage } from '../../components/list/list-page';
import { formatClock, useFormat } from '../../i18n/format';
import type { ExamRecord } from '../../api/types';

/** Exam records as a server-paged table; `showPerson` adds who sat the exam (the admin view of everyone's). */
export function RecordsTable({ query, onPage, empty, showPerson = false }: { query: UseQueryResult<ListPage<ExamRecord>>; onPage(page: number): void; empty: ReactNode; showPerson?: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const columns: TableColumnsType<ExamRecord> = [
    ...(showPerson
      ? [
          {
            title: t('records.columns.person'),
            key: 'person',
            render: (_: unknown, r: ExamRecord) => (
              <>
                {r.full_name || r.username}
                <div>
                  <Typography.Text type="secondary">{[r.username, r.department].filter(Boolean).join(' · ')}</Typography.Text>
                </div>
              </>
            ),
          },
        ]
      : []),
    {
      title: t('records.columns.exam'),
      key: 'exam',
      render: (_, r) => (
        <>
          <Link to={`/records/${r.id}`}>{r.exam_name}</Link>
          {r.late && (
            <div>
              <Typography.Text type="secondary">{t('records.late')}</Typography.Text>
            </div>
          )}
        </>
      ),
    },
    { title: t('records.columns.submitted'), dataIndex: 'submitted_at', render: (iso: string) => format.dateTime(iso) },
    { title: t('records.columns.score'), key: 'score', render: (_, r) => t('exams.scoreOf', { score: r.score, total: r.total_score }) },
    { title: t('records.columns.correct'), key: 'correct', render: (_, r) => t('records.correctOf', { correct: r.correct_count, count: r.question_count }) },
    { title: t('records.columns.time'), dataIndex: 'time_spent_sec', render: (s: number) => formatClock(s) },
    { title: t('records.columns.result'), key: 'result', render: (_, r) => <StatusTag tone={r.passed ? 'success' : 'danger'}>{t(r.passed ? 'exams.result.passed' : 'exams.result.failed')}</StatusTag> },
  ];
  return <DataTable label={t('records.tableLabel')} query={query} columns={columns} rowKey={(r) => r.id} onPage={onPage} empty={empty} />;
}
