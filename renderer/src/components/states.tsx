import type { ReactNode } from 'react';
import type { ApiError } from '../api/client';
import type { QueryState } from '../app/query';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function ErrorNotice({ error, onRetry }: { error: ApiError | Error; onRetry?: () => void }) {
  return (
    <div className="notice notice-error" role="alert">
      <span>{error.message}</span>
      {onRetry && (
        <button type="button" className="button button-small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state state-empty">{children}</div>;
}

/** Shows a query's loading state or error, then its data. */
export function QueryView<T>({ query, children }: { query: QueryState<T>; children: (data: T) => ReactNode }) {
  if (query.error) return <ErrorNotice error={query.error} onRetry={query.reload} />;
  if (query.data === undefined) return <Loading />;
  return <>{children(query.data)}</>;
}
