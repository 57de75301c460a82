import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Col, Descriptions, Row } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { NotFound } from '../../components/NotFound';
import { Loading, QueryView } from '../../components/states';
import { useIdParam } from '../../components/useIdParam';
import { useFormat } from '../../i18n/format';
import { fetchFile } from '../../api/download';
import type { Certificate } from '../../api/types';
import { recordQueries } from './queries';
import { DownloadCertificate } from './DownloadCertificate';

const PdfPreview = lazy(() => import('../../components/PdfPreview'));

/** One certificate: its facts, the certificate itself as issued (the PDF, drawn in the page) and its download. */
export default function CertificatePage() {
  const id = useIdParam();
  const certificate = useQuery({ ...recordQueries.certificate(id ?? 0), enabled: id !== null });
  if (id === null) return <NotFound />;
  return <QueryView query={certificate}>{(data) => <CertificateView certificate={data} />}</QueryView>;
}

function CertificateView({ certificate }: { certificate: Certificate }) {
  const { t } = useTranslation();
  const format = useFormat();
  const facts = [
    { key: 'number', label: t('records.certificate.number'), children: certificate.certificate_no },
    { key: 'holder', label: t('records.certificate.holder'), children: certificate.full_name },
    { key: 'score', label: t('records.detail.score'), children: t('records.detail.scoreValue', { score: certificate.score, total: certificate.total_score, pass: certificate.pass_score }) },
    { key: 'issued', label: t('records.certificate.issued'), children: format.dateTime(certificate.issued_at) },
  ];
  return (
    <>
      <PageHeader back={{ to: '/records', label: t('records.back') }} title={certificate.exam_name} subtitle={t('records.certificate.subtitle')} actions={<DownloadCertificate certificate={certificate} />} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={8}>
          <Card title={<h2 className="card-heading">{t('records.certificate.details')}</h2>}>
            <Descriptions column={1} size="small" items={facts} />
          </Card>
        </Col>
        <Col xs={24} xl={16}>
          <Card title={<h2 className="card-heading">{t('records.certificate.document')}</h2>}>
            <Suspense fallback={<Loading />}>
              <PdfPreview id={`certificate-${certificate.id}`} title={certificate.certificate_no} load={async () => (await fetchFile(`/exam/certificates/${certificate.id}/pdf`)).arrayBuffer()} />
            </Suspense>
          </Card>
        </Col>
      </Row>
    </>
  );
}
