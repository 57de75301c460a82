import { useTranslation } from 'react-i18next';
import { Button, Select, Space } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, CloseOutlined } from '@ant-design/icons';

interface Props {
  id?: string;
  /** The chosen values, in order. */
  value: string[];
  onChange(value: string[]): void;
  /** What may be chosen. */
  options: { value: string; label: string }[];
  /** Names the "add" picker and the list. */
  label: string;
}

const move = (list: string[], from: number, to: number) => {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
};

/** An ordered choice (a specialist's allowed skills, first = preferred): add from a picker, move up or down, remove. */
export function OrderedPicker({ id, value, onChange, options, label }: Props) {
  const { t } = useTranslation();
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? v;
  return (
    <div className="ordered-picker">
      <ol aria-label={label}>
        {value.map((item, index) => (
          <li key={item}>
            <span className="ordered-picker-label">{labelOf(item)}</span>
            <Space size={4}>
              <Button size="small" type="text" icon={<ArrowUpOutlined aria-hidden />} disabled={index === 0} onClick={() => onChange(move(value, index, index - 1))} aria-label={t('ai.order.up', { name: labelOf(item) })} />
              <Button size="small" type="text" icon={<ArrowDownOutlined aria-hidden />} disabled={index === value.length - 1} onClick={() => onChange(move(value, index, index + 1))} aria-label={t('ai.order.down', { name: labelOf(item) })} />
              <Button size="small" type="text" icon={<CloseOutlined aria-hidden />} onClick={() => onChange(value.filter((v) => v !== item))} aria-label={t('ai.order.remove', { name: labelOf(item) })} />
            </Space>
          </li>
        ))}
      </ol>
      <Select<string>
        id={id}
        showSearch={{ optionFilterProp: 'label' }}
        aria-label={t('ai.order.add', { what: label })}
        value={null}
        onChange={(picked) => onChange([...value, picked])}
        options={options.filter((o) => !value.includes(o.value))}
        className="full-width"
      />
    </div>
  );
}
