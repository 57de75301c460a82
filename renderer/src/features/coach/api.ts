import { api } from '../../api/client';
import { postEventStream } from '../../api/event-stream';
import type { ChatHistoryMessage, ChatStreamEvent, QuickAction, QuickActionId, QuickActionResult } from '../../api/types';

export const coachKeys = { history: 'coach/history' };

export const getHistory = (signal?: AbortSignal) => api.get<{ messages: ChatHistoryMessage[] }>('/ai-chat/history', { query: { limit: 50 }, signal });
export const clearHistory = () => api.delete<{ deleted: number }>('/ai-chat/history');

export interface CoachMessage {
  message: string;
  context: { product_id?: number; page: string };
}

/** Streams the coach's reply; `onEvent` sees each `text`, then `done` or `error`. */
export const sendCoachMessage = (body: CoachMessage, onEvent: (event: ChatStreamEvent) => void, signal: AbortSignal) =>
  postEventStream<ChatStreamEvent>('/ai-chat/message', body, onEvent, signal);

export const listQuickActions = (signal?: AbortSignal) => api.get<{ actions: QuickAction[] }>('/ai-chat/quick-actions', { signal });
export const runQuickAction = (action_id: QuickActionId, params: Record<string, unknown>) => api.post<QuickActionResult>('/ai-chat/quick-action', { action_id, params });
