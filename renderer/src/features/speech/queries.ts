import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { AiRoute, AudioModel, AudioRouteStatus } from '../../api/types';

export type AudioRouteRow = AiRoute & AudioRouteStatus;

export const speechKeys = {
  all: ['speech'] as const,
  routes: () => [...speechKeys.all, 'routes'] as const,
  models: () => [...speechKeys.all, 'models'] as const,
};

export const speechQueries = {
  /** The enabled audio routes in the order they are tried, each saying whether it can run here. */
  routes: () => queryOptions({ queryKey: speechKeys.routes(), queryFn: ({ signal }) => api.get<AudioRouteRow[]>('/ai/routes/audio', { signal }) }),
  models: () => queryOptions({ queryKey: speechKeys.models(), queryFn: ({ signal }) => api.get<AudioModel[]>('/audio/models', { signal }) }),
};
