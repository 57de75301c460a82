import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Typography } from 'antd';
import { PushpinFilled } from '@ant-design/icons';
import { PagedList } from '../../components/list/PagedList';
import type { ListPage } from '../../components/list/list-page';
import { useFormat } from '../../i18n/format';
import type { Task } from '../../api/types';

interface Props {
  tasks: UseQueryResult<ListPage<Task>>;
  selected: number | null;
  onSelect(id: number): void;
  onPage(page: number): void;
  /** Whether a search is on (the empty text then says nothing matches). */
  searching: boolean;
}

/** A page of the caller's tasks as the server orders them (pinned first, then the most recently active); one is selected. */
export function TaskList({ tasks, selected, onSelect, onPage, searching }: Props) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <PagedList
      query={tasks}
      rowKey={(task) => task.id}
      onPage={onPage}
      empty={t(searching ? 'workbench.noTaskMatch' : 'workbench.noTasks')}
      render={(task) => (
        <button type="button" className={`task-item${task.id === selected ? ' task-item-active' : ''}`} aria-current={task.id === selected} onClick={() => onSelect(task.id)}>
          <strong>
            {task.pinned && <PushpinFilled className="task-pin" role="img" aria-label={t('workbench.task.pinned')} />} {task.title}
          </strong>
          <Typography.Text type="secondary">
            {task.specialist_key} · {format.dateTime(task.updated_at)}
          </Typography.Text>
        </button>
      )}
    />
  );
}
