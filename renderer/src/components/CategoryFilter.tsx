import { navigate, useLocation } from '../app/router';
import { useQuery, type QueryState } from '../app/query';
import { humanize } from './format';

/** Category chips: "All" plus every category present. */
export function CategoryFilter({ categories, value, onChange, label }: { categories: string[]; value: string; onChange(category: string): void; label: string }) {
  const options = ['', ...categories];
  return (
    <div className="chips" role="group" aria-label={label}>
      {options.map((category) => (
        <button key={category || 'all'} type="button" className={`chip${category === value ? ' chip-active' : ''}`} aria-pressed={category === value} onClick={() => onChange(category)}>
          {category ? humanize(category) : 'All'}
        </button>
      ))}
    </div>
  );
}

export interface CategoryList<T> {
  /** The selected category ('' = all), kept in the URL as ?category=. */
  category: string;
  /** Every category of the unfiltered list. */
  categories: string[];
  /** The list as the server filters it. */
  list: QueryState<T[]>;
  select(category: string): void;
}

/**
 * A catalog page's list with its category filter: the categories come from the whole list, the filtered list
 * from the server's `category` query.
 */
export function useCategoryList<T extends { category: string }>(path: string, keyOf: (category: string) => string, load: (category: string | undefined, signal: AbortSignal) => Promise<T[]>): CategoryList<T> {
  const category = useLocation().query.get('category') ?? '';
  const all = useQuery(keyOf(''), (signal) => load(undefined, signal));
  const list = useQuery(keyOf(category), (signal) => load(category || undefined, signal));
  const categories = [...new Set((all.data ?? []).map((i) => i.category).filter(Boolean))].sort();
  return { category, categories, list, select: (c) => navigate(c ? `${path}?category=${encodeURIComponent(c)}` : path) };
}
