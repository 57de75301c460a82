import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Flex, Typography } from 'antd';
import { SimpleList } from '../../components/SimpleList';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/states';
import { useListParams } from '../../components/list/useListParams';
import { useUser } from '../../app/session';
import { useFormat } from '../../i18n/format';
import type { Certificate } from '../../api/types';
import { recordQueries } from './queries';
import { DownloadCertificate } from './DownloadCertificate';
import { RecordsTable } from './RecordsTable';

/** The caller's formal exam records and certificates. */
export default function RecordsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const { page, setPage } = useListParams({});
  const records = useQuery(recordQueries.mine(user.id, page));
  return (
    <>
      <PageHeader title={t('records.title')} subtitle={t('records.subtitle')} />
      <Certificates />
      <h2 className="section-title">{t('records.examRecords')}</h2>
      <RecordsTable
        query={records}
        onPage={setPage}
        empty={
          <>
            {t('records.empty')} <Link to="/exams">{t('records.takeExam')}</Link>
          </>
        }
      />
    </>
  );
}

function Certificates() {
  const { t } = useTranslation();
  const certificates = useQuery(recordQueries.certificates());
  return (
    <section aria-label={t('records.certificates')} className="section">
      <Card title={<h2 className="card-heading">{t('records.certificates')}</h2>}>
        <QueryView query={certificates}>
          {(list) => (list.length ? <SimpleList items={list} rowKey={(c) => c.id} render={(c) => <CertificateItem certificate={c} />} /> : <Typography.Text type="secondary">{t('records.noCertificates')}</Typography.Text>)}
        </QueryView>
      </Card>
    </section>
  );
}

function CertificateItem({ certificate }: { certificate: Certificate }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Flex className="list-row" justify="space-between" align="center" gap="middle">
      <div>
        <Link to={`/certificates/${certificate.id}`}>
          <strong>{certificate.exam_name}</strong>
        </Link>
        <div>
          <Typography.Text type="secondary">
            {t('records.certificateLine', { number: certificate.certificate_no, score: certificate.score, total: certificate.total_score, date: format.dateTime(certificate.issued_at) })}
          </Typography.Text>
        </div>
      </div>
      <DownloadCertificate certificate={certificate} size="small" />
    </Flex>
  );
}
