import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { postEventStream } from '../../api/event-stream';
import type { ChatHistoryMessage, ChatStreamEvent, QuickAction } from '../../api/types';

export const coachKeys = {
  all: ['coach'] as const,
  history: () => [...coachKeys.all, 'history'] as const,
  quickActions: () => [...coachKeys.all, 'quick-actions'] as const,
};

export const coachQueries = {
  history: () =>
    queryOptions({
      queryKey: coachKeys.history(),
      queryFn: ({ signal }) => api.get<{ messages: ChatHistoryMessage[] }>('/ai-chat/history', { query: { limit: 50 }, signal }),
      // The page keeps the conversation itself once loaded; a refetch would not change what it shows.
      staleTime: Infinity,
    }),
  quickActions: () => queryOptions({ queryKey: coachKeys.quickActions(), queryFn: ({ signal }) => api.get<{ actions: QuickAction[] }>('/ai-chat/quick-actions', { signal }), staleTime: Infinity }),
};

export interface CoachMessage {
  message: string;
  /** With coaching_report_id: a role-play of that call (the coach plays its customer); sent with every message of it. */
  context: { product_id?: number | null; page: string; coaching_report_id?: number };
}

/** Streams the coach's reply; `onEvent` sees each `text`, then `done` or `error`. */
export const sendCoachMessage = (body: CoachMessage, onEvent: (event: ChatStreamEvent) => void, signal: AbortSignal) =>
  postEventStream<ChatStreamEvent>('/ai-chat/message', body, onEvent, signal);
