import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { Alert, Button, DatePicker, Flex, Form, Input, Modal } from 'antd';
import { ErrorNotice } from '../../components/states';
import { useDiscardGuard } from '../../components/form/useDiscardGuard';
import type { Assignment } from '../../api/types';
import { useUpdateAssignment } from './queries';

/**
 * Moves an assignment's due date (and its start, its name). The assignees not done are told of a new date. Enter in
 * a field never saves: only the button does.
 */
export function EditAssignmentDialog({ assignment, onClose }: { assignment: Assignment; onClose(): void }) {
  const { t } = useTranslation();
  const update = useUpdateAssignment();
  const [title, setTitle] = useState(assignment.title);
  const [due, setDue] = useState<Dayjs | null>(dayjs(assignment.due_at));
  const [startsAt, setStartsAt] = useState<Dayjs | null>(assignment.starts_at ? dayjs(assignment.starts_at) : null);
  const [missing, setMissing] = useState<string | null>(null);
  const dueChanged = due !== null && !due.isSame(dayjs(assignment.due_at));
  const startChanged = (startsAt?.toISOString() ?? null) !== (assignment.starts_at ? dayjs(assignment.starts_at).toISOString() : null);
  const changed = dueChanged || startChanged || title.trim() !== assignment.title;

  const save = () => {
    if (!due) return setMissing(t('assignments.form.needDue'));
    setMissing(null);
    update.mutate(
      {
        id: assignment.id,
        input: {
          ...(dueChanged && { due_at: due.toISOString() }),
          ...(startChanged && { starts_at: startsAt ? startsAt.toISOString() : null }),
          ...(title.trim() !== assignment.title && { title: title.trim() }),
        },
      },
      { onSuccess: onClose },
    );
  };
  const { requestClose, holder } = useDiscardGuard();
  const cancel = () => requestClose(changed, onClose);
  return (
    <Modal open title={t('assignments.edit.title')} onCancel={cancel} footer={null} destroyOnHidden width={560}>
      {holder}
      <Form layout="vertical" aria-label={t('assignments.edit.title')} onSubmitCapture={(e) => e.preventDefault()}>
        <Flex gap="middle" wrap>
          <Form.Item label={t('assignments.form.due')} htmlFor="assignment-edit-due" required extra={dueChanged ? t('assignments.edit.dueHint') : undefined}>
            <DatePicker id="assignment-edit-due" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" value={due} onChange={setDue} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
          </Form.Item>
          <Form.Item label={t('assignments.form.startsAt')} htmlFor="assignment-edit-start">
            <DatePicker id="assignment-edit-start" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" value={startsAt} onChange={setStartsAt} allowClear />
          </Form.Item>
        </Flex>
        <Form.Item label={t('assignments.edit.name')} htmlFor="assignment-edit-title">
          <Input id="assignment-edit-title" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        </Form.Item>
        {missing && <Alert type="warning" showIcon role="alert" title={missing} />}
        {update.error ? <ErrorNotice error={update.error} /> : null}
        <Flex justify="flex-end" gap="small" className="section-top">
          <Button onClick={cancel}>{t('common.action.cancel')}</Button>
          <Button type="primary" onClick={save} loading={update.isPending} disabled={!changed}>
            {t('assignments.edit.save')}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}
