import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Col, Descriptions, Row, Typography } from 'antd';
import { MessageOutlined } from '@ant-design/icons';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { NotFound } from '../../components/NotFound';
import { QueryView } from '../../components/states';
import { RichText } from '../../components/RichText';
import { useIdParam } from '../../components/useIdParam';
import { humanize, useFormat } from '../../i18n/format';
import type { Product } from '../../api/types';
import { productQueries } from './queries';

export default function ProductDetailPage() {
  const id = useIdParam();
  const product = useQuery({ ...productQueries.detail(id ?? 0), enabled: id !== null });
  if (id === null) return <NotFound />;
  return <QueryView query={product}>{(p) => <ProductDetail product={p} />}</QueryView>;
}

function ProductDetail({ product }: { product: Product }) {
  const { t } = useTranslation();
  const format = useFormat();
  const none = t('common.state.none');
  const facts = [
    { key: 'category', label: t('products.facts.category'), children: humanize(product.category) || none },
    { key: 'code', label: t('products.facts.code'), children: product.code ?? none },
    { key: 'risk', label: t('products.facts.risk'), children: product.risk_level || none },
    { key: 'commission', label: t('products.facts.commission'), children: product.commission_rate === null ? none : format.percent(product.commission_rate) },
    ...Object.entries(product.attributes).map(([k, v]) => ({ key: `attr-${k}`, label: humanize(k), children: v })),
  ];
  return (
    <>
      <PageHeader
        back={{ to: '/products', label: t('products.back') }}
        title={product.name}
        subtitle={product.summary}
        actions={
          <>
            {product.status !== 'active' && <StatusTag tone="warning">{t('products.inactive')}</StatusTag>}
            <Button icon={<MessageOutlined aria-hidden />} href={`#/coach?product=${product.id}`}>
              {t('products.practise')}
            </Button>
          </>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={15}>
          <Card title={<h2 className="card-heading">{t('products.about')}</h2>}>
            {product.description ? <RichText content={product.description} /> : <Typography.Text type="secondary">{t('products.noDescription')}</Typography.Text>}
          </Card>
        </Col>
        <Col xs={24} xl={9}>
          <Card title={<h2 className="card-heading">{t('products.keyFacts')}</h2>}>
            <Descriptions column={1} size="small" items={facts} />
          </Card>
        </Col>
      </Row>
    </>
  );
}
