import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { Alert, Button, Descriptions, Flex, Modal, Table } from 'antd';
import { useDiscardGuard } from '../../components/form/useDiscardGuard';
import { ErrorNotice } from '../../components/states';
import { FilePicker } from '../../components/form/FilePicker';
import type { ImportErrorCode, ImportReport, ImportRowError } from '../../api/types';
import { useImportProducts } from './mutations';

/** The product fields a row error can name, as the product form labels them (other names are shown as sent). */
const FIELD_LABELS: Record<string, ParseKeys> = {
  code: 'content.products.code',
  name: 'content.products.name',
  category: 'content.products.category',
  risk_level: 'content.products.risk',
  commission_rate: 'content.products.commission',
  summary: 'content.products.summary',
  description: 'content.products.description',
  status: 'content.status.label',
};

const PROBLEMS: Record<ImportErrorCode, ParseKeys> = {
  not_an_object: 'content.import.problems.not_an_object',
  duplicate_code: 'content.import.problems.duplicate_code',
  required: 'content.import.problems.required',
  invalid_type: 'content.import.problems.invalid_type',
  too_small: 'content.import.problems.too_small',
  too_big: 'content.import.problems.too_big',
  invalid_value: 'content.import.problems.invalid_value',
  invalid_format: 'content.import.problems.invalid_format',
  invalid: 'content.import.problems.invalid',
};
const EXPECTED: Record<string, ParseKeys> = { number: 'content.import.problems.invalid_type_number', string: 'content.import.problems.invalid_type_string' };

/** A row's problem in the interface language (the server's English text when it sends a code we do not know). */
function problemKey(e: ImportRowError): ParseKeys | undefined {
  return (e.code === 'invalid_type' && e.expected && EXPECTED[e.expected]) || PROBLEMS[e.code];
}

/**
 * Excel/JSON import in two steps: a dry run checks the file and lists every bad row (nothing written); only a
 * file without errors can then be imported. Choosing another file starts over.
 */
export function ImportDialog({ onClose, onImported }: { onClose(): void; onImported(report: ImportReport): void }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const check = useImportProducts();
  const run = useImportProducts();
  const report = check.data;
  const { requestClose, holder } = useDiscardGuard();
  const cancel = () => requestClose(file !== null && !run.data, onClose);
  const choose = (chosen: File | null) => {
    setFile(chosen);
    check.reset();
    run.reset();
  };
  const columns = [
    { title: t('content.import.row'), dataIndex: 'row', width: 80 },
    { title: t('content.import.field'), dataIndex: 'field', width: 140, render: (f?: string) => (f ? (FIELD_LABELS[f] ? `${t(FIELD_LABELS[f])} (${f})` : f) : t('common.state.none')) },
    {
      title: t('content.import.error'),
      key: 'error',
      render: (_: unknown, e: ImportRowError) => {
        const key = problemKey(e);
        return key ? <span title={e.error}>{t(key, { row: e.other_row ?? '' })}</span> : e.error;
      },
    },
  ];
  return (
    <Modal open title={t('content.import.title')} onCancel={cancel} footer={null} width={760}>
      {holder}
      <p>{t('content.import.help')}</p>
      <Flex gap="middle" align="start" wrap>
        <FilePicker file={file} onChange={choose} chooseLabel={t('content.import.choose')} aria-label={t('content.import.file')} accept=".xlsx,.json" />
        <Button type="primary" disabled={!file} loading={check.isPending} onClick={() => file && check.mutate({ file, dryRun: true })}>
          {t('content.import.check')}
        </Button>
      </Flex>
      {check.error && <ErrorNotice error={check.error} />}
      {report && (
        <section aria-label={t('content.import.report')} className="section-top">
          <Descriptions size="small" column={4} items={(['total', 'valid', 'created', 'updated'] as const).map((k) => ({ key: k, label: t(`content.import.counts.${k}`), children: report[k] }))} />
          {report.errors.length > 0 ? (
            <>
              <Alert className="section" type="error" showIcon title={t('content.import.invalid', { count: report.errors.length })} description={t('content.import.fixAndRetry')} />
              <Table<ImportRowError> aria-label={t('content.import.errors')} size="small" rowKey={(e) => `${e.row}-${e.field ?? ''}-${e.error}`} columns={columns} dataSource={report.errors} pagination={{ pageSize: 10, hideOnSinglePage: true }} />
            </>
          ) : (
            <Alert className="section" type="success" showIcon title={t('content.import.ready', { count: report.valid })} />
          )}
          {run.error && <ErrorNotice error={run.error} />}
          <Flex justify="flex-end" gap="small" className="section-top">
            <Button onClick={cancel}>{t('common.action.cancel')}</Button>
            <Button type="primary" disabled={!file || report.errors.length > 0} loading={run.isPending} onClick={() => file && run.mutate({ file, dryRun: false }, { onSuccess: onImported })}>
              {t('content.import.run', { count: report.valid })}
            </Button>
          </Flex>
        </section>
      )}
    </Modal>
  );
}
