import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { Alert, Button, DatePicker, Flex, Form, Input, Modal, Radio } from 'antd';
import { ErrorNotice } from '../../components/states';
import { RemoteSelect, type RemoteOption } from '../../components/form/RemoteSelect';
import { catalogOptions, orgQueries } from '../org/queries';
import type { AssignmentItemType } from '../../api/types';
import { pickerQueries, useCreateAssignment } from './queries';
import { MultiPicker } from './MultiPicker';
import { useDiscardGuard } from '../../components/form/useDiscardGuard';

/**
 * A new assignment: what (a formal paper or a course, by name), for whom (departments, positions, people), by when.
 * Only the button creates it (and notifies): Enter in a field, e.g. confirming a date, does not.
 */
export function CreateAssignmentDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateAssignment();
  const [type, setType] = useState<AssignmentItemType>('exam');
  const [item, setItem] = useState<RemoteOption | null>(null);
  const [title, setTitle] = useState('');
  const [departments, setDepartments] = useState<RemoteOption[]>([]);
  const [positions, setPositions] = useState<RemoteOption[]>([]);
  const [people, setPeople] = useState<RemoteOption[]>([]);
  const [due, setDue] = useState<Dayjs | null>(dayjs().add(7, 'day').hour(18).minute(0).second(0).millisecond(0));
  const [startsAt, setStartsAt] = useState<Dayjs | null>(null);
  const [missing, setMissing] = useState<string | null>(null);

  const submit = () => {
    if (!item) return setMissing(t('assignments.form.needItem'));
    if (!departments.length && !positions.length && !people.length) return setMissing(t('assignments.form.needTarget'));
    if (!due) return setMissing(t('assignments.form.needDue'));
    setMissing(null);
    create.mutate(
      {
        item: { type, id: item.value },
        target: { department_ids: departments.map((d) => d.value), position_ids: positions.map((p) => p.value), user_ids: people.map((p) => p.value) },
        due_at: due.toISOString(),
        ...(startsAt && { starts_at: startsAt.toISOString() }),
        ...(title.trim() && { title: title.trim() }),
      },
      { onSuccess: (created) => void navigate(`/admin/assignments/${created.id}`) },
    );
  };

  const { requestClose, holder } = useDiscardGuard();
  const entered = item !== null || title.trim() !== '' || departments.length + positions.length + people.length > 0 || startsAt !== null;
  const cancel = () => requestClose(entered, onClose);
  return (
    <Modal open title={t('assignments.form.title')} onCancel={cancel} footer={null} destroyOnHidden width={640}>
      {holder}
      <Form layout="vertical" aria-label={t('assignments.form.title')} onSubmitCapture={(e) => e.preventDefault()}>
        <Form.Item label={t('assignments.form.itemType')}>
          <Radio.Group
            optionType="button"
            value={type}
            onChange={(e) => {
              setType(e.target.value as AssignmentItemType);
              setItem(null);
            }}
            options={[
              { value: 'exam', label: t('assignments.itemType.exam') },
              { value: 'course', label: t('assignments.itemType.course') },
            ]}
          />
        </Form.Item>
        <Form.Item label={type === 'exam' ? t('assignments.form.paper') : t('assignments.form.course')} htmlFor="assignment-item" required>
          <RemoteSelect
            key={type}
            id="assignment-item"
            search={type === 'exam' ? pickerQueries.papers : catalogOptions.course}
            value={item?.value}
            current={item}
            placeholder={t('assignments.form.itemPlaceholder')}
            onChange={(_, option) => setItem(option)}
          />
        </Form.Item>
        <Form.Item label={t('assignments.form.departments')} htmlFor="assignment-departments">
          <MultiPicker id="assignment-departments" search={orgQueries.departmentOptions} value={departments} onChange={setDepartments} placeholder={t('assignments.form.searchByName')} />
        </Form.Item>
        <Form.Item label={t('assignments.form.positions')} htmlFor="assignment-positions">
          <MultiPicker id="assignment-positions" search={orgQueries.positionOptions} value={positions} onChange={setPositions} placeholder={t('assignments.form.searchByName')} />
        </Form.Item>
        <Form.Item label={t('assignments.form.people')} htmlFor="assignment-people" extra={t('assignments.form.ruleHint')}>
          <MultiPicker id="assignment-people" search={pickerQueries.people} value={people} onChange={setPeople} placeholder={t('assignments.form.searchByName')} />
        </Form.Item>
        <Flex gap="middle" wrap>
          <Form.Item label={t('assignments.form.due')} htmlFor="assignment-due" required>
            <DatePicker id="assignment-due" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" value={due} onChange={setDue} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
          </Form.Item>
          <Form.Item label={t('assignments.form.startsAt')} htmlFor="assignment-start">
            <DatePicker id="assignment-start" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" value={startsAt} onChange={setStartsAt} allowClear />
          </Form.Item>
        </Flex>
        <Form.Item label={t('assignments.form.name')} htmlFor="assignment-title" extra={t('assignments.form.nameHint')}>
          <Input id="assignment-title" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        </Form.Item>
        {missing && <Alert type="warning" showIcon role="alert" title={missing} />}
        {create.error ? <ErrorNotice error={create.error} /> : null}
        <Flex justify="flex-end" gap="small" className="section-top">
          <Button onClick={cancel}>{t('common.action.cancel')}</Button>
          <Button type="primary" onClick={submit} loading={create.isPending}>
            {t('assignments.form.submit')}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}
