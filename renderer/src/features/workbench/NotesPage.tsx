import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Button, Card, Input, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { PageHeader } from '../../components/PageHeader';
import { ConfirmMutation } from '../../components/ConfirmButton';
import { PagedList } from '../../components/list/PagedList';
import { ListSearch } from '../../components/list/ListSearch';
import { useListParams } from '../../components/list/useListParams';
import { FormDialog } from '../../components/form/FormDialog';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import { useFormat } from '../../i18n/format';
import type { StudyNote } from '../../api/types';
import { workbenchQueries } from './queries';
import { useDeleteNote, useSaveNote } from './mutations';

/** 学习笔记: the caller's study notes, searched and paged on the server (title and content). */
export default function NotesPage() {
  const { t } = useTranslation();
  const { page, filters, setPage, setFilters } = useListParams({ q: '' });
  const notes = useQuery(workbenchQueries.notes({ ...filters, page }));
  const [editing, setEditing] = useState<StudyNote | 'new' | null>(null);
  return (
    <>
      <PageHeader
        back={{ to: '/workbench', label: t('workbench.title') }}
        title={t('workbench.notes.title')}
        subtitle={t('workbench.notes.subtitle')}
        actions={
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
            {t('workbench.notes.new')}
          </Button>
        }
      />
      <ListSearch label={t('workbench.notes.search')} placeholder={t('workbench.notes.searchPlaceholder')} value={filters.q} onSearch={(q) => setFilters({ q })} />
      <PagedList
        label={t('workbench.notes.title')}
        query={notes}
        rowKey={(n) => n.id}
        render={(note) => <Note note={note} onEdit={() => setEditing(note)} />}
        onPage={setPage}
        empty={filters.q ? t('workbench.notes.noMatch') : t('workbench.notes.empty')}
      />
      {editing && <NoteDialog note={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function Note({ note, onEdit }: { note: StudyNote; onEdit(): void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const remove = useDeleteNote();
  return (
    <Card
      size="small"
      className="section"
      title={<h2 className="card-heading">{note.title}</h2>}
      extra={
        <Space>
          <Button size="small" onClick={onEdit} aria-label={t('workbench.notes.editOf', { title: note.title })}>
            {t('workbench.notes.edit')}
          </Button>
          <ConfirmMutation mutation={remove} variables={note.id} confirm={t('workbench.notes.deleteConfirm', { title: note.title })} aria-label={t('workbench.notes.deleteOf', { title: note.title })}>
            {t('workbench.notes.delete')}
          </ConfirmMutation>
        </Space>
      }
    >
      <Typography.Paragraph className="note-content" ellipsis={{ rows: 4, expandable: true, symbol: t('workbench.notes.more') }}>
        {note.content}
      </Typography.Paragraph>
      <Typography.Text type="secondary">{t('workbench.notes.updated', { when: format.dateTime(note.updated_at) })}</Typography.Text>
    </Card>
  );
}

const schema = z.object({ title: z.string().trim().min(1, 'common.validation.required').max(200, 'workbench.tooLong'), content: z.string().max(200_000, 'workbench.tooLong') });

function NoteDialog({ note, onClose }: { note: StudyNote | null; onClose(): void }) {
  const { t } = useTranslation();
  const form = useZodForm(schema, { title: note?.title ?? '', content: note?.content ?? '' });
  const save = useSaveNote();
  const title = note ? t('workbench.notes.editOf', { title: note.title }) : t('workbench.notes.new');
  return (
    <FormDialog title={title} form={form} mutation={save} submitLabel={t('common.action.save')} onSubmit={(input) => save.mutate({ id: note?.id ?? null, input }, { onSuccess: onClose })} onClose={onClose} width={720}>
      <FormItem control={form.control} name="title" label={t('workbench.notes.noteTitle')} required>
        {(field) => <Input {...field} />}
      </FormItem>
      <FormItem control={form.control} name="content" label={t('workbench.notes.content')}>
        {(field) => <Input.TextArea {...field} autoSize={{ minRows: 6, maxRows: 16 }} />}
      </FormItem>
    </FormDialog>
  );
}
