import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Project, StudyNote, Task } from '../../api/types';
import { workbenchKeys } from './queries';

/** A change to the caller's workbench: the tasks, projects and notes reload afterwards. */
function useWorkbenchMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: workbenchKeys.all }) });
}

export type TaskChange = Partial<Pick<Task, 'title' | 'pinned' | 'project_id'>>;

export const useUpdateTask = () => useWorkbenchMutation(({ id, change }: { id: number; change: TaskChange }) => api.put<Task>(`/worker/my-tasks/${id}`, change));

/**
 * Deletes one item: its own query (`gone`) is set to null first, so that nothing asks for it while it is still
 * shown, then the `reload` keys refresh.
 */
function useDeleteItem(path: string, gone: (id: number) => QueryKey, reload: QueryKey[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`${path}/${id}`),
    onSuccess: (_, id) => {
      queryClient.setQueryData(gone(id), null);
      return Promise.all(reload.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}

/** The deleted task's runs and artifacts are not asked for again (they are gone): only the lists reload. */
export const useDeleteTask = () => useDeleteItem('/worker/my-tasks', workbenchKeys.task, [workbenchKeys.tasks(), workbenchKeys.projects()]);

export const useCreateProject = () => useWorkbenchMutation((input: { name: string; description: string }) => api.post<Project>('/worker/projects', input));
export const useDeleteProject = () => useDeleteItem('/worker/projects', workbenchKeys.projectName, [workbenchKeys.all]);

export type NoteInput = Pick<StudyNote, 'title' | 'content'>;

export const useSaveNote = () =>
  useWorkbenchMutation(({ id, input }: { id: number | null; input: NoteInput }) => (id === null ? api.post<StudyNote>('/notes', input) : api.put<StudyNote>(`/notes/${id}`, input)));
export const useDeleteNote = () => useWorkbenchMutation((id: number) => api.delete(`/notes/${id}`));
