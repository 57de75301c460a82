import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Card, Descriptions } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { NotFound } from '../../components/NotFound';
import { QueryView } from '../../components/states';
import { useIdParam } from '../../components/useIdParam';
import { formatClock, useFormat } from '../../i18n/format';
import type { ExamRecordDetail } from '../../api/types';
import { AnswerCard, answerKeyHidden } from '../exams/AnswerCard';
import { recordQueries } from './queries';
import { useUser } from '../../app/session';

export default function RecordDetailPage() {
  const id = useIdParam();
  const record = useQuery({ ...recordQueries.detail(id ?? 0), enabled: id !== null });
  if (id === null) return <NotFound />;
  return <QueryView query={record}>{(data) => <RecordDetail record={data} />}</QueryView>;
}

function RecordDetail({ record }: { record: ExamRecordDetail }) {
  const { t } = useTranslation();
  const format = useFormat();
  // An admin reading someone else's record: whose it is, and the way back to everyone's records.
  const reader = useUser();
  const admin = reader.role === 'admin';
  const whose = record.user_id === reader.id ? undefined : record.full_name || record.username;
  const person = whose
    ? [
        { key: 'person', label: t('assignments.record.person'), children: `${whose} (${record.username})` },
        { key: 'department', label: t('assignments.record.department'), children: record.department || t('common.state.none') },
        { key: 'paper', label: t('assignments.record.paper'), children: record.exam_name },
      ]
    : [];
  const facts = [
    ...person,
    { key: 'score', label: t('records.detail.score'), children: t('records.detail.scoreValue', { score: record.score, total: record.total_score, pass: record.pass_score }) },
    { key: 'correct', label: t('records.detail.correct'), children: t('records.correctOf', { correct: record.correct_count, count: record.question_count }) },
    { key: 'time', label: t('records.detail.time'), children: formatClock(record.time_spent_sec) },
    { key: 'submitted', label: t('records.detail.submitted'), children: format.dateTime(record.submitted_at) + (record.late ? ` ${t('records.detail.late')}` : '') },
    ...(admin ? [{ key: 'leaves', label: t('integrity.leaves.record'), children: t('integrity.leaves.count', { count: record.leave_count ?? 0 }) }] : []),
  ];
  return (
    <>
      <PageHeader
        back={whose ? { to: '/admin/records', label: t('shell.nav.examRecords') } : { to: '/records', label: t('records.back') }}
        title={whose ? t('assignments.record.title', { name: whose, exam: record.exam_name }) : record.exam_name}
        subtitle={record.certificate_id !== null ? t('records.detail.certificate') : undefined}
        actions={<StatusTag tone={record.passed ? 'success' : 'danger'}>{t(record.passed ? 'exams.result.passed' : 'exams.result.failed')}</StatusTag>}
      />
      <Card className="section">
        <Descriptions column={{ xs: 1, lg: 2 }} size="small" items={facts} />
      </Card>
      <h2 className="section-title">{t('exams.result.answers')}</h2>
      {record.detail.some(answerKeyHidden) && <Alert type="info" showIcon title={t('integrity.hidden.answer')} className="section" />}
      <ol className="question-list" aria-label={t('exams.result.answers')}>
        {record.detail.map((d) => (
          <AnswerCard key={d.question_id} question={d} detail={d} whose={whose} />
        ))}
      </ol>
    </>
  );
}
