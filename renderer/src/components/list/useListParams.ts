import { useSearchParams } from 'react-router';

const positive = (value: string | null) => (value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1);

/**
 * A list's page and filters, kept in the URL (`#/admin/users?q=li&page=2`) so that reload, back and links keep
 * them. `defaults` names the filters and their values when absent; changing a filter goes back to page 1.
 */
export function useListParams<F extends Record<string, string>>(defaults: F) {
  const [params, setParams] = useSearchParams();
  const page = positive(params.get('page'));
  const filters = Object.fromEntries(Object.entries(defaults).map(([key, fallback]) => [key, params.get(key) ?? fallback])) as F;

  const update = (patch: Partial<F> & { page?: number }) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(patch)) {
        if (key === 'page') continue;
        if (value === undefined || value === defaults[key]) next.delete(key);
        else next.set(key, String(value));
      }
      if (patch.page && patch.page > 1) next.set('page', String(patch.page));
      else next.delete('page');
      return next;
    });

  return {
    page,
    filters,
    setPage: (p: number) => update({ page: p } as Partial<F> & { page: number }),
    setFilters: (patch: Partial<F>) => update(patch),
  };
}
