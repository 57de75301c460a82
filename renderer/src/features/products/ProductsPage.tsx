import { Link } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { CategoryFilter, useCategoryList } from '../../components/CategoryFilter';
import { Empty, QueryView } from '../../components/states';
import { humanize } from '../../components/format';
import type { Product } from '../../api/types';
import { listProducts, productKeys } from './api';

export function ProductsPage() {
  const { category, categories, list, select } = useCategoryList('/products', productKeys.list, listProducts);

  return (
    <>
      <PageHeader title="Products" subtitle="What we sell, with the facts you need in front of a customer." />
      <CategoryFilter label="Filter by category" categories={categories} value={category} onChange={select} />
      <QueryView query={list}>
        {(products) => (products.length ? <ProductGrid products={products} /> : <Empty>No products in this category yet.</Empty>)}
      </QueryView>
    </>
  );
}

function ProductGrid({ products }: { products: Product[] }) {
  return (
    <ul className="card-grid" aria-label="Products">
      {products.map((product) => (
        <li key={product.id}>
          <Link to={`/products/${product.id}`} className="card card-link">
            <div className="card-eyebrow">{humanize(product.category) || 'Uncategorised'}</div>
            <h2 className="card-title">{product.name}</h2>
            {product.code && <div className="card-meta">Code {product.code}</div>}
            <p className="card-text">{product.summary || 'No summary yet.'}</p>
          </Link>
        </li>
      ))}
    </ul>
  );
}
