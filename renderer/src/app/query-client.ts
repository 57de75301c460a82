import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';

/** A 4xx is the server's final word (bad input, gone, forbidden): trying again cannot change it. */
const isFinal = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;
/** No answer at all: the request never reached the server, so sending it again cannot do it twice. */
const isUnanswered = (error: unknown) => error instanceof ApiError && error.status === 0;

/**
 * Server state for the whole renderer. offlineFirst: a request is always tried once; while the server is
 * unreachable (api/connection.ts) retries and mutations wait, and resume when it answers again. Retries back off
 * exponentially (1 s, 2 s, 4 s; TanStack's default delay) and never repeat a 4xx.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      networkMode: 'offlineFirst',
      retry: (failures, error) => !isFinal(error) && failures < 3,
      refetchOnReconnect: true,
      refetchOnWindowFocus: true,
    },
    mutations: {
      networkMode: 'offlineFirst',
      retry: (failures, error) => isUnanswered(error) && failures < 3,
    },
  },
});
