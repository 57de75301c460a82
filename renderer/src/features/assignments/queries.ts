import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Assignment, AssignmentInput, AssignmentProgress, MyAssignment, RemindResult } from '../../api/types';
import { downloadFile } from '../../api/download';
import { PAGE_SIZE } from '../../components/list/list-page';
import { optionsQuery, type RemoteOption } from '../../components/form/RemoteSelect';

export interface ProgressFilter {
  status: string;
  department: string;
  q: string;
  page: number;
}

export const assignmentKeys = {
  all: ['assignments'] as const,
  list: () => [...assignmentKeys.all, 'list'] as const,
  detail: (id: number) => [...assignmentKeys.all, 'detail', id] as const,
  progress: (id: number, filter: ProgressFilter) => [...assignmentKeys.all, 'progress', id, filter] as const,
  mine: () => [...assignmentKeys.all, 'mine'] as const,
  people: (q: string) => [...assignmentKeys.all, 'people', q] as const,
  papers: (q: string) => [...assignmentKeys.all, 'papers', q] as const,
};

const withoutEmpty = (filter: Record<string, string | number>) => Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== ''));

export const assignmentQueries = {
  list: () => queryOptions({ queryKey: assignmentKeys.list(), queryFn: ({ signal }) => api.get<Assignment[]>('/assignments', { signal }) }),
  detail: (id: number) => queryOptions({ queryKey: assignmentKeys.detail(id), queryFn: ({ signal }) => api.get<Assignment>(`/assignments/${id}`, { signal }) }),
  progress: (id: number, filter: ProgressFilter) =>
    queryOptions({
      queryKey: assignmentKeys.progress(id, filter),
      queryFn: ({ signal }) => api.get<AssignmentProgress>(`/assignments/${id}/progress`, { query: { ...withoutEmpty({ ...filter }), size: PAGE_SIZE }, signal }),
      placeholderData: keepPreviousData,
    }),
  mine: () => queryOptions({ queryKey: assignmentKeys.mine(), queryFn: ({ signal }) => api.get<MyAssignment[]>('/assignments/mine', { signal }) }),
};

/** Pickers: people by name, formal papers by name. */
export const pickerQueries = {
  people: (q: string) =>
    optionsQuery(assignmentKeys.people(q), async (signal): Promise<RemoteOption[]> =>
      (await api.get<{ id: number; full_name: string; username: string; department: string }[]>('/system/users', { query: { q, status: 'active', size: PAGE_SIZE }, signal })).map((u) => ({
        value: u.id,
        label: `${u.full_name || u.username}${u.department ? ` · ${u.department}` : ''}`,
      })),
    ),
  papers: (q: string) =>
    optionsQuery(assignmentKeys.papers(q), async (signal): Promise<RemoteOption[]> =>
      (await api.get<{ id: number; name: string }[]>('/exam/papers', { query: { q, type: 'formal', status: 'active', page: 1, size: PAGE_SIZE }, signal })).map((p) => ({ value: p.id, label: p.name })),
    ),
};

function useAssignmentMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: assignmentKeys.all }) });
}

export const useCreateAssignment = () => useAssignmentMutation((input: AssignmentInput) => api.post<Assignment>('/assignments', input));
export const useUpdateAssignment = () => useAssignmentMutation(({ id, input }: { id: number; input: Partial<AssignmentInput> & { starts_at?: string | null } }) => api.put<Assignment>(`/assignments/${id}`, input));
export const useDeleteAssignment = () => useAssignmentMutation((id: number) => api.delete<{ id: number }>(`/assignments/${id}`));
export const useRemind = () => useAssignmentMutation((id: number) => api.post<RemindResult>(`/assignments/${id}/remind`));

export const useExportProgress = () =>
  useMutation({
    mutationFn: ({ id, filter, lang }: { id: number; filter: Omit<ProgressFilter, 'page'>; lang: string }) =>
      downloadFile(`/assignments/${id}/progress/export?${new URLSearchParams({ ...withoutEmpty({ ...filter }), lang: lang === 'en' ? 'en' : 'zh-CN', tz_offset: String(-new Date().getTimezoneOffset()) } as Record<string, string>)}`),
  });
