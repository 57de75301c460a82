import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { postEventStream } from '../../api/event-stream';
import type { Project, Specialist, StudyNote, Task, TaskArtifact, TaskRun, WorkerChatEvent } from '../../api/types';
import { PAGE_SIZE } from '../../components/list/list-page';
import { pagedArrayQuery } from '../../components/list/paged-query';
import { optionsQuery, type RemoteOption } from '../../components/form/RemoteSelect';

/** A search and a page of one of the workbench lists. */
export interface WorkbenchFilter {
  q: string;
  page: number;
}

export interface TaskFilter extends WorkbenchFilter {
  /** One project's tasks, or (null) all of them. */
  projectId: number | null;
}


const projectOption = (p: Project): RemoteOption => ({ value: p.id, label: p.name });

export const workbenchKeys = {
  all: ['workbench'] as const,
  tasks: () => [...workbenchKeys.all, 'tasks'] as const,
  /** A page of the caller's tasks, of one project or all of them. */
  taskList: (filter: TaskFilter) => [...workbenchKeys.tasks(), filter] as const,
  /** One task (not under tasks(): a deleted one is not asked for again). */
  task: (id: number) => [...workbenchKeys.all, 'task', id] as const,
  runs: (taskId: number) => [...workbenchKeys.all, 'runs', taskId] as const,
  artifacts: (taskId: number) => [...workbenchKeys.all, 'artifacts', taskId] as const,
  specialists: () => [...workbenchKeys.all, 'specialists'] as const,
  projects: () => [...workbenchKeys.all, 'projects'] as const,
  projectOptions: (q: string) => [...workbenchKeys.projects(), 'options', q] as const,
  /** A project's name as a picker option: outside `all` (a workbench change never asks for it again). */
  projectName: (id: number) => ['workbench-project-name', id] as const,
  notes: () => [...workbenchKeys.all, 'notes'] as const,
  noteList: (filter: WorkbenchFilter) => [...workbenchKeys.notes(), filter] as const,
};

export const workbenchQueries = {
  /** A page of the caller's tasks whose titles contain filter.q: pinned first, then the most recently active (the server's order). */
  tasks: (filter: TaskFilter) => pagedArrayQuery<Task>('/worker/my-tasks', workbenchKeys.taskList(filter), filter.page, { q: filter.q, project_id: filter.projectId }),
  /** One task, for the selected one when it is not on the page shown; fresh until a change to the workbench (null once deleted). */
  task: (id: number) => queryOptions<Task | null>({ queryKey: workbenchKeys.task(id), queryFn: ({ signal }) => api.get<Task>(`/worker/my-tasks/${id}`, { signal }), staleTime: Infinity }),
  runs: (taskId: number) => queryOptions({ queryKey: workbenchKeys.runs(taskId), queryFn: ({ signal }) => api.get<TaskRun[]>(`/worker/my-tasks/${taskId}/runs`, { signal }) }),
  artifacts: (taskId: number) => queryOptions({ queryKey: workbenchKeys.artifacts(taskId), queryFn: ({ signal }) => api.get<TaskArtifact[]>(`/worker/my-tasks/${taskId}/artifacts`, { signal }) }),
  specialists: () => queryOptions({ queryKey: workbenchKeys.specialists(), queryFn: ({ signal }) => api.get<Specialist[]>('/specialists', { signal }) }),
  /** For the project pickers: the caller's most recent projects whose names contain `q` (one page). */
  projectOptions: (q: string) => optionsQuery(workbenchKeys.projectOptions(q), async (signal) => (await api.get<Project[]>('/worker/projects', { query: { q, size: PAGE_SIZE }, signal })).map(projectOption)),
  /** A project's name, asked for when it is not among the first page of projects (nor picked or created here); null once deleted. */
  projectName: (id: number) =>
    queryOptions<RemoteOption | null>({
      queryKey: workbenchKeys.projectName(id),
      queryFn: async ({ signal }) => projectOption(await api.get<Project>(`/worker/projects/${id}`, { signal })),
      staleTime: Infinity,
    }),
  /** A page of the caller's notes whose title or content contains filter.q (the server searches). */
  notes: (filter: WorkbenchFilter) => pagedArrayQuery<StudyNote>('/notes', workbenchKeys.noteList(filter), filter.page, { q: filter.q }),
};

export interface WorkerMessage {
  message: string;
  task_id?: number;
  specialist_key?: string;
  project_id?: number;
}

/** One exchange with the digital worker: the first event names the task (new or continued), then text, then done. */
export const sendWorkerMessage = (body: WorkerMessage, onEvent: (event: WorkerChatEvent) => void, signal: AbortSignal) =>
  postEventStream<WorkerChatEvent>('/worker/chat', body, onEvent, signal);
