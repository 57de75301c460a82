import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Col, Row } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { MediaList } from '../../components/MediaList';
import { EmptyState, QueryView } from '../../components/states';
import { RichText } from '../../components/RichText';
import { companyQueries } from './queries';

/** The company introduction and its approved media: images, PDFs, video and audio, all viewable in place. */
export default function CompanyPage() {
  const { t } = useTranslation();
  const intro = useQuery(companyQueries.intro());
  return (
    <>
      <PageHeader title={t('home.company.title')} subtitle={t('home.company.subtitle')} />
      <QueryView query={intro}>
        {(data) => (
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={12}>
              <Card title={<h2 className="card-heading">{t('home.about')}</h2>}>
                {data.content.trim() ? <RichText content={data.content} /> : <EmptyState>{t('home.noIntro')}</EmptyState>}
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card title={<h2 className="card-heading">{t('home.media')}</h2>}>
                <MediaList medias={data.medias} emptyText={t('home.noMedia')} />
              </Card>
            </Col>
          </Row>
        )}
      </QueryView>
    </>
  );
}
