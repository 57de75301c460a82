import { api } from '../../api/client';
import type { Product } from '../../api/types';

export const productKeys = {
  all: 'products',
  list: (category: string) => `products/list/${category}`,
  detail: (id: number) => `products/detail/${id}`,
};

export const listProducts = (category: string | undefined, signal?: AbortSignal) => api.get<Product[]>('/products', { query: { category }, signal });
export const getProduct = (id: number, signal?: AbortSignal) => api.get<Product>(`/products/${id}`, { signal });
