import type { Page } from '../../api/types';

/** Previous / next over a server page of `{items, total, page, size}`. */
export function Pager({ page, onPage }: { page: Page<unknown>; onPage(page: number): void }) {
  const pages = Math.max(1, Math.ceil(page.total / page.size));
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="button button-small" disabled={page.page <= 1} onClick={() => onPage(page.page - 1)}>
        ← Previous
      </button>
      <span className="muted small">
        Page {page.page} of {pages} · {page.total} in all
      </span>
      <button type="button" className="button button-small" disabled={page.page >= pages} onClick={() => onPage(page.page + 1)}>
        Next →
      </button>
    </nav>
  );
}
