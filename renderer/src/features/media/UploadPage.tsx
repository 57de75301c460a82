import { useState } from 'react';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Alert, Card, Col, Row, Select, Typography } from 'antd';
import { FilePicker } from '../../components/form/FilePicker';
import { RemoteSelect } from '../../components/form/RemoteSelect';
import { catalogOptions } from '../org/queries';
import { isAbort } from '../../api/client';
import type { MediaBindType } from '../../api/types';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice } from '../../components/states';
import { FormItem, ZodForm, useZodForm } from '../../components/form/ZodForm';
import { UploadSubmit, useCancellable } from '../../components/form/UploadSubmit';
import { useFormat } from '../../i18n/format';
import { DIRECT_UPLOAD_LIMIT } from './upload';
import { useUploadMedia } from './mutations';

const BIND_TYPES: MediaBindType[] = ['none', 'company', 'product', 'course'];

const schema = z
  .object({
    file: z.custom<File | null>((value) => value === null || value instanceof File),
    bind_type: z.enum(['none', 'company', 'product', 'course']),
    bind_id: z.number().int().positive().nullable(),
  })
  .refine((v) => v.file !== null, { path: ['file'], message: 'common.validation.fileRequired' })
  .refine((v) => !['product', 'course'].includes(v.bind_type) || v.bind_id !== null, { path: ['bind_id'], message: 'media.upload.pickRequired' });

/** Any user may upload material; an administrator reviews it before anyone else sees it. */
export default function UploadPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const form = useZodForm(schema, { file: null, bind_type: 'none', bind_id: null });
  const upload = useUploadMedia();
  const [sent, setSent] = useState(0);
  const cancellable = useCancellable();
  const file = form.watch('file');
  const bindType = form.watch('bind_type');
  const needsId = bindType === 'product' || bindType === 'course';
  const sending = upload.isPending;

  const submit = (values: z.output<typeof schema>) => {
    setSent(0);
    const binding = { bind_type: values.bind_type, ...(needsId && values.bind_id !== null ? { bind_id: values.bind_id } : {}) };
    upload.mutate({ file: values.file!, binding, onProgress: setSent, signal: cancellable.start() });
  };

  const failed = upload.isError && !isAbort(upload.error);
  return (
    <>
      <PageHeader title={t('media.upload.title')} subtitle={t('media.upload.subtitle')} />
      <Card>
        <ZodForm form={form} onSubmit={submit} aria-label={t('media.upload.title')} disabled={sending}>
          <FormItem control={form.control} name="file" label={t('media.upload.file')} required>
            {({ id, onChange }) => (
              <FilePicker
                id={id}
                file={file}
                chooseLabel={t('media.upload.choose')}
                onChange={(chosen) => {
                  onChange(chosen);
                  upload.reset();
                }}
              />
            )}
          </FormItem>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <FormItem control={form.control} name="bind_type" label={t('media.upload.attachTo')}>
                {(field) => (
                  <Select
                    {...field}
                    onChange={(type: MediaBindType) => {
                      field.onChange(type);
                      // A product's id means nothing as a course's: the choice starts again.
                      form.setValue('bind_id', null);
                    }}
                    options={BIND_TYPES.map((type) => ({ value: type, label: t(`media.bindType.${type}`) }))}
                  />
                )}
              </FormItem>
            </Col>
            {needsId && (
              <Col xs={24} md={12}>
                <FormItem control={form.control} name="bind_id" label={t(bindType === 'product' ? 'media.upload.product' : 'media.upload.course')} required>
                  {({ id, value, onChange }) => (
                    <RemoteSelect
                      key={bindType}
                      id={id}
                      search={catalogOptions[bindType]}
                      value={value}
                      onChange={(chosen) => onChange(chosen)}
                      placeholder={t(bindType === 'product' ? 'media.upload.searchProduct' : 'media.upload.searchCourse')}
                    />
                  )}
                </FormItem>
              </Col>
            )}
          </Row>
          {file && (
            <Typography.Paragraph type="secondary">
              {t('media.upload.chosen', { name: file.name, size: format.bytes(file.size) })}
              {file.size > DIRECT_UPLOAD_LIMIT && ` ${t('media.upload.inParts')}`}
            </Typography.Paragraph>
          )}
          <UploadSubmit
            sending={sending}
            submitLabel={t('media.upload.submit')}
            sendingLabel={t('media.upload.sending')}
            progressLabel={t('media.upload.progress')}
            sent={sent}
            total={file?.size ?? 0}
            onCancel={cancellable.cancel}
          />
        </ZodForm>
        {failed && (
          <div className="section-top">
            <ErrorNotice error={upload.error} />
            {file && file.size > DIRECT_UPLOAD_LIMIT && <Typography.Paragraph type="secondary">{t('media.upload.resumeHint')}</Typography.Paragraph>}
          </div>
        )}
        {upload.isSuccess && <Alert className="section-top" type="success" showIcon title={t('media.upload.done', { name: upload.data.filename })} />}
      </Card>
    </>
  );
}
