import { experimental_streamedQuery as streamedQuery, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { getEventStream } from '../../api/event-stream';
import type { Page, Transcription, TranscriptionJob, TranscriptionJobEvent, TranscriptionSummary, VoiceprintStatus } from '../../api/types';
import { fromPage, PAGE_SIZE } from '../../components/list/list-page';

export const callsKeys = {
  all: ['calls'] as const,
  transcriptions: (page: number) => [...callsKeys.all, 'transcriptions', page] as const,
  transcription: (id: number) => [...callsKeys.all, 'transcription', id] as const,
  job: (id: number) => [...callsKeys.all, 'job', id] as const,
  failedJobs: ['calls', 'failed-jobs'] as const,
  voiceprint: ['calls', 'voiceprint'] as const,
};

export const callsQueries = {
  transcriptions: (page: number) =>
    queryOptions({
      queryKey: callsKeys.transcriptions(page),
      queryFn: async ({ signal }) => fromPage(await api.get<Page<TranscriptionSummary>>('/audio/transcriptions', { query: { page, size: PAGE_SIZE }, signal })),
      placeholderData: keepPreviousData,
    }),
  transcription: (id: number) => queryOptions({ queryKey: callsKeys.transcription(id), queryFn: ({ signal }) => api.get<Transcription>(`/audio/transcriptions/${id}`, { signal }) }),
  /** The caller's failed jobs (newest first): they stay listed until retried. */
  failedJobs: () =>
    queryOptions({
      queryKey: callsKeys.failedJobs,
      queryFn: async ({ signal }) => (await api.get<Page<TranscriptionJob>>('/audio/jobs', { query: { state: 'failed', size: 20 }, signal })).items,
    }),
  voiceprint: () => queryOptions({ queryKey: callsKeys.voiceprint, queryFn: ({ signal }) => api.get<VoiceprintStatus>('/audio/voiceprint', { signal }) }),
  /**
   * A transcription job as it goes (GET /api/audio/jobs/{id}/events): the latest event, `progress` until one of
   * `done`, `error` or `cancelled` ends the stream. A finished job's stream is only its final event.
   */
  job: (id: number) =>
    queryOptions({
      queryKey: callsKeys.job(id),
      queryFn: streamedQuery<TranscriptionJobEvent, TranscriptionJobEvent | null>({
        streamFn: ({ signal }) => getEventStream<TranscriptionJobEvent>(`/audio/jobs/${id}/events`, signal),
        reducer: (_, event) => event,
        initialValue: null,
      }),
      // Left and opened again, the stream starts afresh (its first event is the job as it is now) rather than
      // showing where it was when the page was left.
      staleTime: 0,
      refetchOnWindowFocus: false,
    }),
};
