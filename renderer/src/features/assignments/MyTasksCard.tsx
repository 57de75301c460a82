import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Typography } from 'antd';
import { StatusTag } from '../../components/StatusTag';
import { CardList, DashboardCard } from '../home/DashboardCard';
import type { MyAssignment } from '../../api/types';
import { assignmentQueries } from './queries';
import { DueDate } from './DueDate';
import { ITEM_TYPE_LABEL, STATUS_TONE } from './status';

const linkOf = (a: MyAssignment) => (a.item.type === 'exam' ? `/exams/${a.item.id}` : a.item.type === 'roleplay' ? `/roleplay?scenario=${a.item.id}` : `/courses/${a.item.id}`);

/** 待完成任务: the caller's assignments not done yet, overdue first (in red), with their due dates. */
export function MyTasksCard() {
  const { t } = useTranslation();
  const mine = useQuery(assignmentQueries.mine());
  return (
    <DashboardCard title={t('assignments.mine.title')} query={mine}>
      {(list) => (
        <CardList
          label={t('assignments.mine.title')}
          items={list.filter((a) => a.status !== 'done')}
          rowKey={(a) => a.id}
          empty={t('assignments.mine.none')}
          render={(a) => (
            <>
              <span>
                <Link to={linkOf(a)}>{a.title}</Link>{' '}
                <Typography.Text type="secondary">{t(ITEM_TYPE_LABEL[a.item.type])}</Typography.Text>
              </span>
              <span className="task-due">
                <DueDate due={a.due_at} overdue={a.status === 'overdue'} />{' '}
                {a.status === 'pending' && <StatusTag tone={STATUS_TONE.pending}>{t('assignments.status.pending')}</StatusTag>}
              </span>
            </>
          )}
        />
      )}
    </DashboardCard>
  );
}
