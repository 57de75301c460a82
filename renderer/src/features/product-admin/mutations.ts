import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ActiveStatus, ImportReport, Product } from '../../api/types';
import { productKeys } from '../products/queries';

export interface ProductFields {
  code: string | null;
  name: string;
  category: string;
  summary: string;
  description: string;
  risk_level: string;
  cooling_off_days: number;
  commission_rate: number | null;
}

function useProductChange<V, R>(send: (value: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }) });
}

export const useCreateProduct = () => useProductChange((fields: ProductFields) => api.post<Product>('/products', fields));

export const useUpdateProduct = () => useProductChange(({ id, change }: { id: number; change: Partial<ProductFields> & { status?: ActiveStatus } }) => api.put<Product>(`/products/${id}`, change));

/** Soft delete (DELETE sets `inactive`), or back on sale. */
export const useSetProductActive = () =>
  useProductChange(({ id, active }: { id: number; active: boolean }) => (active ? api.put<Product>(`/products/${id}`, { status: 'active' }) : api.delete<Product>(`/products/${id}`)));

/** Sends the file: a dry run only checks it and reports every row; a real import writes all rows or none. */
export const useImportProducts = () =>
  useProductChange(({ file, dryRun }: { file: File; dryRun: boolean }) => {
    const form = new FormData();
    form.set('file', file);
    return api.post<ImportReport>('/products/import', form, { query: { dry_run: dryRun || undefined } });
  });
