import { useState } from 'react';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Input, Space } from 'antd';
import { EditOutlined, PushpinOutlined } from '@ant-design/icons';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNotice } from '../../components/states';
import { FormDialog } from '../../components/form/FormDialog';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import type { Task } from '../../api/types';
import { ProjectSelect } from './ProjectSelect';
import { useDeleteTask, useUpdateTask } from './mutations';

const renameSchema = z.object({ title: z.string().trim().min(1, 'common.validation.required').max(200, 'workbench.tooLong') });

function RenameDialog({ task, onClose }: { task: Task; onClose(): void }) {
  const { t } = useTranslation();
  const form = useZodForm(renameSchema, { title: task.title });
  const update = useUpdateTask();
  return (
    <FormDialog title={t('workbench.task.rename')} form={form} mutation={update} submitLabel={t('common.action.save')} onSubmit={({ title }) => update.mutate({ id: task.id, change: { title } }, { onSuccess: onClose })} onClose={onClose}>
      <FormItem control={form.control} name="title" label={t('workbench.task.title')} required>
        {(field) => <Input {...field} />}
      </FormItem>
    </FormDialog>
  );
}

/** The selected task's title and what can be done with it: pin, rename, move to a project, delete (after asking). */
export function TaskActions({ task, onDeleted }: { task: Task; onDeleted(): void }) {
  const { t } = useTranslation();
  const update = useUpdateTask();
  const remove = useDeleteTask();
  const [renaming, setRenaming] = useState(false);
  return (
    <div className="task-actions">
      <Flex justify="space-between" align="center" gap="small" wrap>
        <h2 className="card-heading">{task.title}</h2>
        <Space wrap>
          <Button size="small" icon={<PushpinOutlined aria-hidden />} aria-pressed={task.pinned} loading={update.isPending} onClick={() => update.mutate({ id: task.id, change: { pinned: !task.pinned } })}>
            {t(task.pinned ? 'workbench.task.unpin' : 'workbench.task.pin')}
          </Button>
          <Button size="small" icon={<EditOutlined aria-hidden />} onClick={() => setRenaming(true)}>
            {t('workbench.task.rename')}
          </Button>
          <ProjectSelect size="small" label={t('workbench.task.project')} none={t('workbench.projects.none')} value={task.project_id} onChange={(project_id) => update.mutate({ id: task.id, change: { project_id } })} />
          <ConfirmButton confirm={t('workbench.task.deleteConfirm', { title: task.title })} onConfirm={() => remove.mutateAsync(task.id).then(onDeleted, () => undefined)} loading={remove.isPending}>
            {t('workbench.task.delete')}
          </ConfirmButton>
        </Space>
      </Flex>
      {update.error && <ErrorNotice error={update.error} />}
      {remove.error && <ErrorNotice error={remove.error} />}
      {renaming && <RenameDialog task={task} onClose={() => setRenaming(false)} />}
    </div>
  );
}
