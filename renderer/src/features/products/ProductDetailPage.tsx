import { useQuery } from '../../app/query';
import { Link } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { Facts } from '../../components/Facts';
import { Pill } from '../../components/Pill';
import { QueryView } from '../../components/states';
import { RichText } from '../../components/RichText';
import { humanize } from '../../components/format';
import type { Product } from '../../api/types';
import { getProduct, productKeys } from './api';

export function ProductDetailPage({ id }: { id: number }) {
  const product = useQuery(productKeys.detail(id), (signal) => getProduct(id, signal));
  return <QueryView query={product}>{(p) => <ProductDetail product={p} />}</QueryView>;
}

function ProductDetail({ product }: { product: Product }) {
  const facts: [string, string][] = [
    ['Category', humanize(product.category) || '—'],
    ['Code', product.code ?? '—'],
    ['Risk level', product.risk_level || '—'],
    ['Commission rate', product.commission_rate === null ? '—' : `${product.commission_rate}%`],
    ...Object.entries(product.attributes).map(([k, v]): [string, string] => [humanize(k), v]),
  ];
  return (
    <>
      <PageHeader
        back={<Link to="/products">← All products</Link>}
        title={product.name}
        subtitle={product.summary}
        actions={
          <>
            {product.status !== 'active' && <Pill tone="warning">Inactive</Pill>}
            <Link to={`/coach?product=${product.id}`} className="button">
              Practise with the AI coach
            </Link>
          </>
        }
      />
      <div className="detail-layout">
        <section className="panel">
          <h2 className="panel-title">About this product</h2>
          {product.description ? <RichText content={product.description} /> : <p className="muted">No description yet.</p>}
        </section>
        <aside className="panel">
          <h2 className="panel-title">Key facts</h2>
          <Facts facts={facts} />
        </aside>
      </div>
    </>
  );
}
