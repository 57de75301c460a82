import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, isAbort } from '../api/client';

// A small query layer in the spirit of query-key factories: every loaded resource has a key such as
// "notifications/list"; a change calls invalidate("notifications") and every mounted query under it reloads.

const mounted = new Set<{ key: string; reload: () => void }>();

export function invalidate(prefix: string): void {
  for (const query of mounted) if (query.key === prefix || query.key.startsWith(`${prefix}/`)) query.reload();
}

export interface QueryState<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload(): void;
}

const asApiError = (err: unknown) => (err instanceof ApiError ? err : new ApiError(0, 'client_error', err instanceof Error ? err.message : String(err)));

/** Loads `fetcher` whenever `key` changes or the key is invalidated; the previous request is aborted. */
export function useQuery<T>(key: string, fetcher: (signal: AbortSignal) => Promise<T>): QueryState<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: ApiError; loading: boolean }>({ key, loading: true });
  const [version, setVersion] = useState(0);
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    const entry = { key, reload };
    mounted.add(entry);
    return () => void mounted.delete(entry);
  }, [key, reload]);

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ key, data: s.key === key ? s.data : undefined, loading: true }));
    fetcherRef.current(controller.signal).then(
      (data) => setState({ key, data, loading: false }),
      (err: unknown) => {
        if (!isAbort(err)) setState({ key, error: asApiError(err), loading: false });
      },
    );
    return () => controller.abort();
  }, [key, version]);

  const current = state.key === key;
  return { data: current ? state.data : undefined, error: current ? state.error : undefined, loading: !current || state.loading, reload };
}

export interface Mutation<A extends unknown[], R> {
  run(...args: A): Promise<R | undefined>;
  busy: boolean;
  error: ApiError | undefined;
  reset(): void;
}

/** Runs a change; keeps its error for display instead of throwing, and invalidates `keys` on success. */
export function useMutation<A extends unknown[], R>(action: (...args: A) => Promise<R>, keys: string[] = []): Mutation<A, R> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async (...args: A) => {
    setBusy(true);
    setError(undefined);
    try {
      const result = await action(...args);
      for (const key of keys) invalidate(key);
      return result;
    } catch (err) {
      setError(asApiError(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, reset: () => setError(undefined) };
}
