import { z } from 'zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { Alert, Checkbox, Col, DatePicker, Input, InputNumber, Radio, Row, Select, Switch } from 'antd';
import { ShowAnswers } from '../../../../contract/exams';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import { FormDialog } from '../../components/form/FormDialog';
import type { ExamPaperAdmin, PaperType } from '../../api/types';
import { paperType } from '../exams/standing';
import { bankQueries } from './queries';
import { useSavePaper } from './mutations';
import { DomainSelect } from './DomainSelect';
import { AudienceField } from './AudienceField';

const whole = (min: number, max: number) => z.number({ error: 'bank.validation.number' }).int('bank.validation.number').min(min, 'bank.validation.number').max(max, 'bank.validation.number');

const schema = z
  .object({
    name: z.string().trim().min(1, 'common.validation.required').max(200, 'content.validation.tooLong'),
    type: z.enum(['formal', 'self_test']),
    domain: z.string().min(1, 'bank.validation.domain'),
    question_count: whole(1, 500),
    total_score: whole(1, 10_000),
    pass_score: whole(0, 10_000),
    duration_minutes: whole(1, 1440),
    randomize: z.boolean(),
    max_attempts: whole(1, 1000).nullable(),
    description: z.string().max(10_000, 'content.validation.tooLong'),
    show_answers: z.enum(ShowAnswers),
    shuffle_options: z.boolean(),
    opens_at: z.string().nullable(),
    closes_at: z.string().nullable(),
    publish: z.boolean(),
    audience: z.object({ department_ids: z.array(z.number()), user_ids: z.array(z.number()) }).nullable(),
  })
  .refine((p) => p.pass_score <= p.total_score, { path: ['pass_score'], message: 'bank.validation.passAboveTotal' })
  .refine((p) => !p.opens_at || !p.closes_at || p.opens_at < p.closes_at, { path: ['closes_at'], message: 'integrity.paper.windowOrder' });

const valuesOf = (p?: ExamPaperAdmin): z.input<typeof schema> => ({
  name: p?.name ?? '',
  type: p?.type ?? 'formal',
  domain: p?.domain ?? '',
  question_count: p?.question_count ?? 10,
  total_score: p?.total_score ?? 100,
  pass_score: p?.pass_score ?? 60,
  duration_minutes: p?.duration_minutes ?? 30,
  randomize: p?.randomize ?? true,
  max_attempts: p?.max_attempts ?? null,
  description: p?.description ?? '',
  show_answers: p?.show_answers ?? 'always',
  shuffle_options: p?.shuffle_options ?? false,
  opens_at: p?.opens_at ?? null,
  closes_at: p?.closes_at ?? null,
  publish: p ? p.status === 'active' : true,
  audience: p?.audience ?? null,
});

const TYPES: PaperType[] = ['formal', 'self_test'];

/**
 * A paper built on a domain of the bank: how many of its questions, scores and time. A new formal paper saved
 * with "publish" is offered at once and every employee is told; unticked, it waits as a draft (inactive).
 */
export function PaperDialog({ paper, onClose, onSaved }: { paper?: ExamPaperAdmin; onClose(): void; onSaved(p: ExamPaperAdmin): void }) {
  const { t } = useTranslation();
  const form = useZodForm(schema, valuesOf(paper));
  const save = useSavePaper();
  const domains = useQuery(bankQueries.domains());
  const [domain, type, count, publish] = form.watch(['domain', 'type', 'question_count', 'publish']);
  const available = domains.data?.find((d) => d.domain === domain)?.active;
  const title = paper ? t('bank.papers.edit', { name: paper.name }) : t('bank.papers.new');
  const notifies = type === 'formal' && publish && !paper?.published_at;
  const submit = ({ publish: on, ...fields }: z.output<typeof schema>) => save.mutate({ id: paper?.id, fields: { ...fields, status: on ? 'active' : 'inactive' } }, { onSuccess: onSaved });
  const number = (name: 'question_count' | 'total_score' | 'pass_score' | 'duration_minutes', label: string) => (
    <Col span={6}>
      <FormItem control={form.control} name={name} label={label} required>
        {(field) => <InputNumber {...field} className="full-width" precision={0} />}
      </FormItem>
    </Col>
  );
  return (
    <FormDialog title={title} form={form} mutation={save} submitLabel={t(notifies ? 'bank.papers.saveAndPublish' : 'common.action.save')} onSubmit={submit} onClose={onClose} width={800}>
      <Row gutter={16}>
        <Col span={14}>
          <FormItem control={form.control} name="name" label={t('bank.papers.name')} required>
            {(field) => <Input {...field} />}
          </FormItem>
        </Col>
        <Col span={10}>
          <FormItem control={form.control} name="type" label={t('bank.papers.type')}>
            {(field) => <Radio.Group {...field} optionType="button" aria-label={t('bank.papers.type')} options={TYPES.map((v) => ({ value: v, label: t(paperType[v]) }))} />}
          </FormItem>
        </Col>
        <Col span={14}>
          <FormItem control={form.control} name="domain" label={t('bank.papers.domain')} required extra={available !== undefined && t('bank.papers.available', { count: available })}>
            {(field) => <DomainSelect id={field.id} value={domain} onChange={field.onChange} onBlur={field.onBlur} />}
          </FormItem>
        </Col>
        <Col span={10}>
          <FormItem control={form.control} name="randomize" label={t('bank.papers.randomize')}>
            {(field) => <Switch id={field.id} checked={form.getValues('randomize')} onChange={field.onChange} />}
          </FormItem>
        </Col>
        {number('question_count', t('bank.papers.questionCount'))}
        {number('total_score', t('bank.papers.totalScore'))}
        {number('pass_score', t('bank.papers.passScore'))}
        {number('duration_minutes', t('bank.papers.duration'))}
        <Col span={8}>
          <FormItem control={form.control} name="max_attempts" label={t('bank.papers.maxAttempts')} extra={t('bank.papers.maxAttemptsHelp')}>
            {(field) => <InputNumber {...field} className="full-width" precision={0} />}
          </FormItem>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={14}>
          <FormItem control={form.control} name="show_answers" label={t('integrity.paper.showAnswers')} extra={t('integrity.paper.showAnswersHelp')}>
            {(field) => <Select {...field} options={ShowAnswers.map((v) => ({ value: v, label: t(`integrity.paper.show.${v}`) }))} />}
          </FormItem>
        </Col>
        <Col span={10}>
          <FormItem control={form.control} name="shuffle_options" label={t('integrity.paper.shuffleOptions')} extra={t('integrity.paper.shuffleOptionsHelp')}>
            {(field) => <Switch id={field.id} checked={form.getValues('shuffle_options')} onChange={field.onChange} />}
          </FormItem>
        </Col>
        <Col span={12}>
          <FormItem control={form.control} name="opens_at" label={t('integrity.paper.opensAt')}>
            {(field) => <InstantPicker id={field.id} value={field.value} onChange={field.onChange} />}
          </FormItem>
        </Col>
        <Col span={12}>
          <FormItem control={form.control} name="closes_at" label={t('integrity.paper.closesAt')} extra={t('integrity.paper.windowHelp')}>
            {(field) => <InstantPicker id={field.id} value={field.value} onChange={field.onChange} />}
          </FormItem>
        </Col>
      </Row>
      {available !== undefined && count > available && <Alert className="section" type="warning" showIcon title={t('bank.papers.fewerQuestions', { count: available })} />}
      <FormItem control={form.control} name="audience" label={t('bank.papers.audience.label')} extra={t('bank.papers.audience.help')}>
        {(field) => <AudienceField id={field.id} value={field.value} onChange={field.onChange} />}
      </FormItem>
      <FormItem control={form.control} name="description" label={t('bank.papers.description')}>
        {(field) => <Input.TextArea {...field} autoSize={{ minRows: 2, maxRows: 5 }} />}
      </FormItem>
      <FormItem control={form.control} name="publish" label={t('bank.papers.offer')}>
        {(field) => (
          <Checkbox id={field.id} checked={publish} onChange={(e) => field.onChange(e.target.checked)}>
            {t(type === 'formal' ? 'bank.papers.publishNow' : 'bank.papers.offerNow')}
          </Checkbox>
        )}
      </FormItem>
      {notifies && <Alert className="section" type="info" showIcon title={t('bank.papers.notifies')} />}
    </FormDialog>
  );
}

/** A moment of the paper's window, edited in local time and kept as an ISO string (null when cleared). */
function InstantPicker({ id, value, onChange }: { id?: string; value: string | null; onChange(value: string | null): void }) {
  return (
    <DatePicker
      id={id}
      className="full-width"
      showTime={{ format: 'HH:mm' }}
      format="YYYY-MM-DD HH:mm"
      value={value ? dayjs(value) : null}
      onChange={(d) => onChange(d ? d.second(0).millisecond(0).toISOString() : null)}
    />
  );
}
