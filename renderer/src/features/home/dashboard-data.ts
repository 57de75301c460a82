import type { QueryClient } from '@tanstack/react-query';
import { learningQueries } from '../learning/queries';
import { examQueries } from '../exams/queries';
import { recordQueries } from '../records/queries';
import { notificationQueries } from '../notifications/queries';

/** Data fetched beside the page's code is as good as new when the cards mount a moment later: no second request. */
const FRESH_AFTER_PREFETCH_MS = 5_000;

/** The dashboard cards' data (the same keys as everywhere else, so changes made elsewhere reach them). */
export const dashboardQueries = {
  myPosition: () => ({ ...learningQueries.myPosition(), staleTime: FRESH_AFTER_PREFETCH_MS }),
  progress: () => ({ ...learningQueries.progress(), staleTime: FRESH_AFTER_PREFETCH_MS }),
  exams: () => ({ ...examQueries.list(), staleTime: FRESH_AFTER_PREFETCH_MS }),
  certificates: () => ({ ...recordQueries.certificates(), staleTime: FRESH_AFTER_PREFETCH_MS }),
  unread: () => ({ ...notificationQueries.list(true), staleTime: FRESH_AFTER_PREFETCH_MS }),
};

/**
 * Asks for the cards' data as soon as the app knows it opens on the dashboard: beside the page's code rather
 * than once it has loaded and rendered.
 */
export function prefetchDashboard(client: QueryClient): void {
  void client.prefetchQuery(dashboardQueries.myPosition());
  void client.prefetchQuery(dashboardQueries.progress());
  void client.prefetchQuery(dashboardQueries.exams());
  void client.prefetchQuery(dashboardQueries.certificates());
  void client.prefetchQuery(dashboardQueries.unread());
}
