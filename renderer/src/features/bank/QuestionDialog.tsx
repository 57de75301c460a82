import { z } from 'zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AutoComplete, Col, Input, Radio, Row } from 'antd';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import { FormDialog } from '../../components/form/FormDialog';
import type { Question, QuestionType } from '../../api/types';
import { bankQueries } from './queries';
import { useSaveQuestion } from './mutations';
import { AnswerPicker, OptionsEditor, TRUE_FALSE, blankOptions } from './QuestionEditors';
import { questionTypes } from './labels';

const schema = z
  .object({
    domain: z.string().trim().min(1, 'common.validation.required').max(100, 'content.validation.tooLong'),
    type: z.enum(['single', 'multiple', 'true_false']),
    stem: z.string().trim().min(1, 'common.validation.required').max(10_000, 'content.validation.tooLong'),
    options: z.array(z.object({ key: z.string(), text: z.string().trim() })),
    answer: z.array(z.string()),
    explanation: z.string().max(10_000, 'content.validation.tooLong'),
  })
  // Options left blank are dropped: at least two must be written, and the answer must be among them.
  .transform((q) => ({ ...q, options: q.options.filter((o) => o.text) }))
  .superRefine((q, ctx) => {
    if (q.options.length < 2) ctx.addIssue({ code: 'custom', path: ['options'], message: 'bank.validation.twoOptions' });
    const valid = q.answer.length > 0 && (q.type === 'multiple' || q.answer.length === 1) && q.answer.every((k) => q.options.some((o) => o.key === k));
    if (!valid) ctx.addIssue({ code: 'custom', path: ['answer'], message: 'bank.validation.answer' });
  });

type Values = z.input<typeof schema>;

const valuesOf = (q?: Question, domain = ''): Values =>
  q ? { domain: q.domain, type: q.type, stem: q.stem, options: q.options, answer: q.answer, explanation: q.explanation } : { domain, type: 'single', stem: '', options: blankOptions(), answer: [], explanation: '' };

/** Creates a question of any type, or edits `question`. Mounted per opening. */
export function QuestionDialog({ question, domain, onClose, onSaved }: { question?: Question; domain?: string; onClose(): void; onSaved(q: Question): void }) {
  const { t } = useTranslation();
  const domains = useQuery(bankQueries.domains());
  const form = useZodForm(schema, valuesOf(question, domain));
  const save = useSaveQuestion();
  const type = form.watch('type');
  const options = form.watch('options');
  const title = question ? t('bank.questions.edit') : t('bank.questions.new');

  /** Changing the type keeps what fits: true/false has its own two options; a single choice keeps one answer. */
  const changeType = (next: QuestionType) => {
    const wasTrueFalse = form.getValues('type') === 'true_false';
    form.setValue('type', next);
    if (next === 'true_false') form.setValue('options', TRUE_FALSE);
    else if (wasTrueFalse) form.setValue('options', blankOptions());
    if (next === 'true_false' || wasTrueFalse) form.setValue('answer', []);
    else if (next === 'single') form.setValue('answer', form.getValues('answer').slice(0, 1));
  };
  const submit = (v: z.output<typeof schema>) => save.mutate({ id: question?.id, fields: v }, { onSuccess: onSaved });

  return (
    <FormDialog title={title} form={form} mutation={save} submitLabel={t('common.action.save')} onSubmit={submit} onClose={onClose} width={760}>
      <Row gutter={16}>
        <Col span={10}>
          <FormItem control={form.control} name="domain" label={t('bank.questions.domain')} required extra={t('bank.questions.domainHelp')}>
            {(field) => <AutoComplete {...field} options={(domains.data ?? []).map((d) => ({ value: d.domain }))} filterOption />}
          </FormItem>
        </Col>
        <Col span={14}>
          <FormItem control={form.control} name="type" label={t('bank.questions.type')}>
            {(field) => <Radio.Group id={field.id} aria-label={t('bank.questions.type')} optionType="button" value={type} onChange={(e) => changeType(e.target.value as QuestionType)} options={questionTypes.map((q) => ({ value: q, label: t(`bank.type.${q}`) }))} />}
          </FormItem>
        </Col>
      </Row>
      <FormItem control={form.control} name="stem" label={t('bank.questions.stem')} required>
        {(field) => <Input.TextArea {...field} autoSize={{ minRows: 2, maxRows: 6 }} />}
      </FormItem>
      {type !== 'true_false' && (
        <FormItem control={form.control} name="options" label={t('bank.questions.options')} required extra={t('bank.questions.optionsHelp')}>
          {(field) => <OptionsEditor id={field.id} value={options} onChange={field.onChange} onRemoved={(key) => form.setValue('answer', form.getValues('answer').filter((k) => k !== key))} />}
        </FormItem>
      )}
      <FormItem control={form.control} name="answer" label={t('bank.questions.answer')} required>
        {(field) => <AnswerPicker id={field.id} type={type} options={options} value={form.getValues('answer')} onChange={(answer) => form.setValue('answer', answer, { shouldValidate: true })} />}
      </FormItem>
      <FormItem control={form.control} name="explanation" label={t('bank.questions.explanation')}>
        {(field) => <Input.TextArea {...field} autoSize={{ minRows: 2, maxRows: 6 }} />}
      </FormItem>
    </FormDialog>
  );
}
