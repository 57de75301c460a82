import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { StatusTag } from '../../components/StatusTag';
import { ErrorNotice } from '../../components/states';
import { PROGRESS } from '../home/PositionCard';
import { learningQueries } from './queries';
import { useUpdateProgress } from './mutations';

/** On a course page: opening it counts as viewed; "Mark as completed" finishes it (and earns its points once). */
export function CourseProgressControl({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  const progress = useQuery(learningQueries.course(courseId));
  const update = useUpdateProgress(courseId);
  const status = progress.data?.status;
  const { mutate } = update;
  useEffect(() => {
    if (status === 'not_started') mutate('viewed');
  }, [status, mutate]);
  if (!status) return null;
  return (
    <Flex vertical align="flex-end" gap={4}>
      <Flex align="center" gap="small">
        <StatusTag tone={PROGRESS[status].tone}>{t(PROGRESS[status].label)}</StatusTag>
        {status !== 'completed' && (
          <Button type="primary" icon={<CheckOutlined aria-hidden />} loading={update.isPending && update.variables === 'completed'} onClick={() => update.mutate('completed')}>
            {t('learning.course.complete')}
          </Button>
        )}
      </Flex>
      {update.error && <ErrorNotice error={update.error} />}
    </Flex>
  );
}
