// The parts of the question form that are not plain inputs: the option list and the correct answer.
import { useTranslation } from 'react-i18next';
import { Button, Checkbox, Flex, Input, Radio, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { QuestionOption, QuestionType } from '../../api/types';
import { optionLabel } from '../exams/standing';

const LETTERS = 'ABCDEFGHIJKLMNOPQRST';
export const MAX_OPTIONS = 20;

/** The keys a true/false question has, with the server's standard texts (shown translated). */
export const TRUE_FALSE: QuestionOption[] = [
  { key: 'true', text: 'True' },
  { key: 'false', text: 'False' },
];

export const blankOptions = (): QuestionOption[] => ['A', 'B', 'C', 'D'].map((key) => ({ key, text: '' }));

/** The first letter no option uses (keys of an edited question are kept, so answers stay what they were). */
const nextKey = (options: QuestionOption[]) => [...LETTERS].find((l) => !options.some((o) => o.key === l)) ?? String(options.length + 1);

export function OptionsEditor({ id, value, onChange, onRemoved }: { id: string; value: QuestionOption[]; onChange(options: QuestionOption[]): void; onRemoved(key: string): void }) {
  const { t } = useTranslation();
  const set = (index: number, text: string) => onChange(value.map((o, i) => (i === index ? { ...o, text } : o)));
  return (
    <Space orientation="vertical" className="options-editor" id={id}>
      {value.map((option, index) => (
        <Flex key={option.key} gap="small" align="center">
          <span className="option-key" aria-hidden>
            {option.key}.
          </span>
          <Input aria-label={t('bank.questions.optionText', { key: option.key })} value={option.text} onChange={(e) => set(index, e.target.value)} />
          <Button
            aria-label={t('bank.questions.removeOption', { key: option.key })}
            icon={<DeleteOutlined aria-hidden />}
            disabled={value.length <= 2}
            onClick={() => {
              onChange(value.filter((_, i) => i !== index));
              onRemoved(option.key);
            }}
          />
        </Flex>
      ))}
      <Button icon={<PlusOutlined aria-hidden />} disabled={value.length >= MAX_OPTIONS} onClick={() => onChange([...value, { key: nextKey(value), text: '' }])}>
        {t('bank.questions.addOption')}
      </Button>
    </Space>
  );
}

/** The correct answer: one option (single, true/false) or several (multiple), as keys. */
export function AnswerPicker({ id, type, options, value, onChange }: { id: string; type: QuestionType; options: QuestionOption[]; value: string[]; onChange(answer: string[]): void }) {
  const { t } = useTranslation();
  const choices = options.map((o) => ({ value: o.key, label: type === 'true_false' ? optionLabel(type, o, t) : `${o.key}. ${o.text || t('bank.questions.emptyOption')}` }));
  if (type === 'multiple')
    return (
      <div id={id} role="group" aria-label={t('bank.questions.answer')}>
        <Checkbox.Group value={value} options={choices} onChange={(keys) => onChange(options.map((o) => o.key).filter((k) => keys.includes(k)))} />
      </div>
    );
  return <Radio.Group id={id} aria-label={t('bank.questions.answer')} value={value[0]} options={choices} onChange={(e) => onChange([e.target.value as string])} />;
}
