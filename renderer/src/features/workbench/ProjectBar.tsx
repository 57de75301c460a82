import { useState } from 'react';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Input } from 'antd';
import { FolderAddOutlined } from '@ant-design/icons';
import { ConfirmButton } from '../../components/ConfirmButton';
import { FormDialog } from '../../components/form/FormDialog';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import type { Project } from '../../api/types';
import { ProjectSelect, useProjectOption } from './ProjectSelect';
import { useCreateProject, useDeleteProject } from './mutations';

const schema = z.object({ name: z.string().trim().min(1, 'common.validation.required').max(200, 'workbench.tooLong'), description: z.string().max(10_000, 'workbench.tooLong') });

function NewProjectDialog({ onClose, onCreated }: { onClose(): void; onCreated(project: Project): void }) {
  const { t } = useTranslation();
  const form = useZodForm(schema, { name: '', description: '' });
  const create = useCreateProject();
  return (
    <FormDialog title={t('workbench.projects.new')} form={form} mutation={create} submitLabel={t('workbench.projects.create')} onSubmit={(values) => create.mutate(values, { onSuccess: onCreated })} onClose={onClose}>
      <FormItem control={form.control} name="name" label={t('workbench.projects.name')} required>
        {(field) => <Input {...field} />}
      </FormItem>
      <FormItem control={form.control} name="description" label={t('workbench.projects.description')}>
        {(field) => <Input.TextArea {...field} autoSize={{ minRows: 2, maxRows: 5 }} />}
      </FormItem>
    </FormDialog>
  );
}

/**
 * Which project's tasks are listed (all, or one picked by a server search), a new project, and deleting the one
 * shown (its tasks stay).
 */
export function ProjectBar({ projectId, onChange }: { projectId: number | null; onChange(projectId: number | null): void }) {
  const { t } = useTranslation();
  const remove = useDeleteProject();
  const [creating, setCreating] = useState(false);
  const { current, remember } = useProjectOption(projectId);
  return (
    <div className="section">
      <Flex gap="small" align="center" wrap>
        <ProjectSelect label={t('workbench.projects.filter')} none={t('workbench.projects.all')} value={projectId} onChange={onChange} />
        <Button size="small" icon={<FolderAddOutlined aria-hidden />} onClick={() => setCreating(true)}>
          {t('workbench.projects.new')}
        </Button>
        {current && (
          <ConfirmButton confirm={t('workbench.projects.deleteConfirm', { name: current.label })} onConfirm={() => remove.mutateAsync(current.value).then(() => onChange(null), () => undefined)} loading={remove.isPending} error={remove.error}>
            {t('workbench.projects.delete')}
          </ConfirmButton>
        )}
      </Flex>
      {creating && (
        <NewProjectDialog
          onClose={() => setCreating(false)}
          onCreated={(project) => {
            setCreating(false);
            remember({ value: project.id, label: project.name });
            onChange(project.id);
          }}
        />
      )}
    </div>
  );
}
