import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Form, Radio } from 'antd';

interface Props<V extends string> {
  label: string;
  value: V;
  options: { value: V; label: string }[];
  onChange(value: V): void;
  /** The value that means "all": shown first, labelled 全部. */
  all?: V;
}

/** A labelled filter of a few values as antd's button radios (in a FilterBar). */
export function ChoiceFilter<V extends string>({ label, value, options, onChange, all }: Props<V>) {
  const { t } = useTranslation();
  const choices = all === undefined ? options : [{ value: all, label: t('common.filter.all') }, ...options];
  return (
    <Form.Item label={label}>
      <Radio.Group aria-label={label} optionType="button" value={value} onChange={(event) => onChange(event.target.value as V)} options={choices} />
    </Form.Item>
  );
}

/** The status filter of an admin list: 全部 first, then each status with its label's key. */
export function StatusFilter<V extends string>({ value, all, onChange, statuses }: { value: V; all: V; onChange(value: V): void; statuses: [V, ParseKeys][] }) {
  const { t } = useTranslation();
  return <ChoiceFilter label={t('content.status.label')} value={value} all={all} onChange={onChange} options={statuses.map(([status, key]) => ({ value: status, label: t(key) }))} />;
}
