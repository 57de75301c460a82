import { useState } from 'react';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Alert, Typography } from 'antd';
import { isAbort } from '../../api/client';
import { FilePicker } from '../../components/form/FilePicker';
import { FormItem, ZodForm, useZodForm } from '../../components/form/ZodForm';
import { UploadSubmit, useCancellable } from '../../components/form/UploadSubmit';
import { ErrorNotice } from '../../components/states';
import { useInstallModel, type ModelShelfUi } from './mutations';

const schemaFor = (extension: string, wrongType: string) =>
  z
    .object({ file: z.custom<File | null>((value) => value === null || value instanceof File) })
    .refine((v) => v.file !== null, { path: ['file'], message: 'common.validation.fileRequired' })
    .refine((v) => !v.file || (/^[\w.-]+$/.test(v.file.name) && extension.split(',').some((ending) => v.file!.name.endsWith(ending))), { path: ['file'], message: wrongType });

export interface InstallModelProps<M> {
  shelf: ModelShelfUi;
  /** The file name's endings, comma separated, e.g. `.bin` or `.bin,.onnx`. */
  extension: string;
  /** The i18n prefix of the texts (title, intro, file, choose, wrongType, submit, sending, progress, resumeHint). */
  texts: 'speech.install' | 'ai.localModels.install';
  /** What to say once installed. */
  installed(model: M): string;
}

/** A model file from this computer (up to gigabytes), sent in resumable chunks and checked by the server. */
export function InstallModel<M>({ shelf, extension, texts, installed }: InstallModelProps<M>) {
  const { t } = useTranslation();
  const schema = schemaFor(extension, `${texts}.wrongType`);
  const form = useZodForm(schema, { file: null });
  const install = useInstallModel<M>(shelf);
  const [sent, setSent] = useState(0);
  const upload = useCancellable();
  const file = form.watch('file');

  const submit = (values: z.output<ReturnType<typeof schemaFor>>) => {
    setSent(0);
    install.mutate({ file: values.file!, onProgress: setSent, signal: upload.start() }, { onSuccess: () => form.reset({ file: null }) });
  };

  return (
    <div className="section-top">
      <h3 className="card-heading">{t(`${texts}.title`)}</h3>
      <Typography.Paragraph type="secondary">{t(`${texts}.intro`)}</Typography.Paragraph>
      <ZodForm form={form} onSubmit={submit} aria-label={t(`${texts}.title`)} disabled={install.isPending}>
        <FormItem control={form.control} name="file" label={t(`${texts}.file`)} required>
          {({ id, onChange }) => (
            <FilePicker
              id={id}
              file={file}
              accept={extension}
              chooseLabel={t(`${texts}.choose`)}
              onChange={(chosen) => {
                onChange(chosen);
                install.reset();
              }}
            />
          )}
        </FormItem>
        <UploadSubmit
          sending={install.isPending}
          submitLabel={t(`${texts}.submit`)}
          sendingLabel={t(`${texts}.sending`)}
          progressLabel={t(`${texts}.progress`)}
          sent={sent}
          total={file?.size ?? 0}
          onCancel={upload.cancel}
        />
      </ZodForm>
      {install.isError && !isAbort(install.error) && (
        <div className="section-top">
          <ErrorNotice error={install.error} />
          <Typography.Paragraph type="secondary">{t(`${texts}.resumeHint`)}</Typography.Paragraph>
        </div>
      )}
      {install.isSuccess && (
        <Alert className="section-top" type="success" showIcon role="status" title={installed(install.data)} />
      )}
    </div>
  );
}
