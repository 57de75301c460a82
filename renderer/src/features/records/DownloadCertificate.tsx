import { useTranslation } from 'react-i18next';
import { Button, Flex } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { ErrorNotice } from '../../components/states';
import type { Certificate } from '../../api/types';
import { useDownloadCertificate } from './mutations';

/** "Download PDF" for one certificate, with its error under it. */
export function DownloadCertificate({ certificate, size }: { certificate: Certificate; size?: 'small' }) {
  const { t } = useTranslation();
  const download = useDownloadCertificate();
  return (
    <Flex vertical gap={4} align="flex-end">
      <Button size={size} icon={<DownloadOutlined aria-hidden />} loading={download.isPending} onClick={() => download.mutate(certificate)} aria-label={t('records.downloadNamed', { number: certificate.certificate_no })}>
        {t('records.download')}
      </Button>
      {download.error && <ErrorNotice error={download.error} />}
    </Flex>
  );
}
