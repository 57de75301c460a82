import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Card, Checkbox, Col, Row, Select } from 'antd';
import { CHANNEL_ROLES, speakerLabel } from './speaker-label';
import { isAbort } from '../../api/client';
import type { TranscriptionJob } from '../../api/types';
import { FilePicker } from '../../components/form/FilePicker';
import { FormItem, ZodForm, useZodForm } from '../../components/form/ZodForm';
import { UploadSubmit, useCancellable } from '../../components/form/UploadSubmit';
import { ErrorNotice } from '../../components/states';
import { useStartTranscription } from './mutations';
import { callsQueries } from './queries';

const name = z.string().trim().max(40, 'calls.upload.nameTooLong');
const schema = z
  .object({
    file: z.custom<File | null>((value) => value === null || value instanceof File),
    bySpeaker: z.boolean(),
    left: name,
    right: name,
    speakerCount: z.number().int().min(0).max(8),
  })
  .refine((v) => v.file !== null, { path: ['file'], message: 'common.validation.fileRequired' })
  // Channel names are optional (without them the voiceprint finds the rep, else A and B), but both or neither.
  .refine((v) => !v.bySpeaker || v.left.length > 0 || v.right.length === 0, { path: ['left'], message: 'common.validation.required' })
  .refine((v) => !v.bySpeaker || v.right.length > 0 || v.left.length === 0, { path: ['right'], message: 'common.validation.required' })
  .refine((v) => !v.bySpeaker || !v.left || v.left !== v.right, { path: ['right'], message: 'calls.upload.namesDiffer' });

/**
 * Pick or drop a recording, name its channels, send it: the job starts at once and the page follows it. The channels
 * are named 销售 (left) and 客户 (right) to begin with; for a rep whose voiceprint is enrolled they start unnamed, so
 * the voiceprint finds the rep on whichever side.
 */
export function CallUpload({ onStarted }: { onStarted(job: TranscriptionJob): void }) {
  const { t } = useTranslation();
  const form = useZodForm(schema, { file: null, bySpeaker: true, left: CHANNEL_ROLES[0], right: CHANNEL_ROLES[1], speakerCount: 2 });
  const enrolled = useQuery(callsQueries.voiceprint()).data?.enrolled === true;
  useEffect(() => {
    if (!enrolled || form.getFieldState('left').isDirty || form.getFieldState('right').isDirty) return;
    form.setValue('left', '');
    form.setValue('right', '');
  }, [enrolled, form]);
  const channelPlaceholder = (side: 'A' | 'B') => (enrolled ? t('calls.upload.byVoiceprint') : speakerLabel(t, side));
  const start = useStartTranscription();
  const [sent, setSent] = useState(0);
  const upload = useCancellable();
  const file = form.watch('file');
  const bySpeaker = form.watch('bySpeaker');

  const submit = (values: z.output<typeof schema>) => {
    setSent(0);
    start.mutate(
      {
        file: values.file!,
        speakers: values.bySpeaker,
        channels: values.bySpeaker && values.left ? [values.left, values.right] : null,
        speakerCount: values.bySpeaker ? values.speakerCount : null,
        onProgress: setSent,
        signal: upload.start(),
      },
      {
        onSuccess: (job) => {
          form.setValue('file', null);
          onStarted(job);
        },
      },
    );
  };

  return (
    <section aria-label={t('calls.upload.title')} className="section">
      <Card title={<h2 className="card-heading">{t('calls.upload.title')}</h2>}>
        <ZodForm form={form} onSubmit={submit} aria-label={t('calls.upload.title')} disabled={start.isPending}>
          <FormItem control={form.control} name="file" label={t('calls.upload.file')} required>
            {({ id, onChange }) => (
              <FilePicker
                id={id}
                file={file}
                accept="audio/*,.mp3,.m4a,.wav,.ogg,.opus,.flac,.webm,.amr,.aac"
                chooseLabel={t('calls.upload.choose')}
                dropHint={t('calls.upload.formats')}
                onChange={(chosen) => {
                  onChange(chosen);
                  start.reset();
                }}
              />
            )}
          </FormItem>
          <FormItem control={form.control} name="bySpeaker" label={t('calls.upload.speakers')} extra={t('calls.upload.speakersHint')}>
            {({ id, value, onChange }) => (
              <Checkbox id={id} checked={value as boolean} onChange={(e) => onChange(e.target.checked)}>
                {t('calls.upload.bySpeaker')}
              </Checkbox>
            )}
          </FormItem>
          {bySpeaker && (
            <FormItem control={form.control} name="speakerCount" label={t('transcript.upload.speakerCount')} extra={t('transcript.upload.speakerCountHint')}>
              {({ id, value, onChange }) => (
                <Select
                  id={id}
                  style={{ width: 160 }}
                  value={value as number}
                  onChange={onChange}
                  options={[0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ value: n, label: n === 0 ? t('transcript.upload.speakerCountAuto') : String(n) }))}
                />
              )}
            </FormItem>
          )}
          {bySpeaker && (
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <FormItem control={form.control} name="left" label={t('calls.upload.left')}>
                  {(field) => <Select {...field} value={field.value || undefined} onChange={(value?: string) => field.onChange(value ?? '')} allowClear placeholder={channelPlaceholder('A')} options={CHANNEL_ROLES.map((role) => ({ value: role, label: speakerLabel(t, role) }))} />}
                </FormItem>
              </Col>
              <Col xs={24} md={12}>
                <FormItem control={form.control} name="right" label={t('calls.upload.right')}>
                  {(field) => <Select {...field} value={field.value || undefined} onChange={(value?: string) => field.onChange(value ?? '')} allowClear placeholder={channelPlaceholder('B')} options={CHANNEL_ROLES.map((role) => ({ value: role, label: speakerLabel(t, role) }))} />}
                </FormItem>
              </Col>
            </Row>
          )}
          <UploadSubmit
            sending={start.isPending}
            submitLabel={t('calls.upload.submit')}
            sendingLabel={t('calls.upload.sending')}
            progressLabel={t('calls.upload.progress')}
            sent={sent}
            total={file?.size ?? 0}
            onCancel={upload.cancel}
          />
        </ZodForm>
        {start.isError && !isAbort(start.error) && <ErrorNotice error={start.error} />}
      </Card>
    </section>
  );
}
