import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Flex, Table, Typography, type TableColumnsType } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { EmptyState, QueryView } from '../../components/states';
import { humanize, useFormat } from '../../i18n/format';
import type { ExamListItem } from '../../api/types';
import { examQueries } from './queries';
import { paperType, standing } from './standing';

export default function ExamsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const exams = useQuery(examQueries.list());
  const columns: TableColumnsType<ExamListItem> = [
    {
      title: t('exams.columns.exam'),
      key: 'name',
      render: (_, exam) => (
        <>
          <Link to={`/exams/${exam.id}`}>{exam.name}</Link>
          <div>
            <Typography.Text type="secondary">{humanize(exam.domain)}</Typography.Text>
          </div>
        </>
      ),
    },
    { title: t('exams.columns.type'), key: 'type', render: (_, exam) => t(paperType[exam.type]) },
    { title: t('exams.columns.questions'), dataIndex: 'question_count', render: (n: number) => format.number(n) },
    { title: t('exams.columns.time'), dataIndex: 'duration_minutes', render: (n: number) => format.minutes(n) },
    { title: t('exams.columns.passMark'), key: 'pass', render: (_, exam) => t('exams.scoreOf', { score: exam.pass_score, total: exam.total_score }) },
    { title: t('exams.columns.best'), dataIndex: 'best_score', render: (n: number | null) => (n === null ? t('common.state.none') : format.number(n)) },
    {
      title: t('exams.columns.status'),
      key: 'status',
      render: (_, exam) => (
        <Flex gap="small" align="center" wrap>
          <StatusTag tone={standing[exam.status].tone}>{t(standing[exam.status].label)}</StatusTag>
          {/* Opens the exam, which resumes the open session with its saved answers and its own deadline. */}
          {exam.open_session && <Link to={`/exams/${exam.id}`}>{t('exams.continue')}</Link>}
        </Flex>
      ),
    },
  ];
  return (
    <>
      <PageHeader title={t('exams.title')} subtitle={t('exams.subtitle')} />
      <QueryView query={exams}>
        {(items) =>
          items.length ? (
            <Table<ExamListItem> aria-label={t('exams.title')} columns={columns} dataSource={items} rowKey="id" pagination={{ hideOnSinglePage: true, pageSize: 20 }} />
          ) : (
            <EmptyState>{t('exams.empty')}</EmptyState>
          )
        }
      </QueryView>
    </>
  );
}
