import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { postEventStream } from '../../api/event-stream';
import type { Specialist, Task, TaskRun, WorkerChatEvent } from '../../api/types';

export const workbenchKeys = {
  all: ['workbench'] as const,
  tasks: () => [...workbenchKeys.all, 'tasks'] as const,
  runs: (taskId: number) => [...workbenchKeys.all, 'runs', taskId] as const,
  specialists: () => [...workbenchKeys.all, 'specialists'] as const,
};

export const workbenchQueries = {
  tasks: () => queryOptions({ queryKey: workbenchKeys.tasks(), queryFn: ({ signal }) => api.get<Task[]>('/worker/my-tasks', { signal }) }),
  runs: (taskId: number) => queryOptions({ queryKey: workbenchKeys.runs(taskId), queryFn: ({ signal }) => api.get<TaskRun[]>(`/worker/my-tasks/${taskId}/runs`, { signal }) }),
  specialists: () => queryOptions({ queryKey: workbenchKeys.specialists(), queryFn: ({ signal }) => api.get<Specialist[]>('/specialists', { signal }) }),
};

export interface WorkerMessage {
  message: string;
  task_id?: number;
  specialist_key?: string;
}

/** One exchange with the digital worker: the first event names the task (new or continued), then text, then done. */
export const sendWorkerMessage = (body: WorkerMessage, onEvent: (event: WorkerChatEvent) => void, signal: AbortSignal) =>
  postEventStream<WorkerChatEvent>('/worker/chat', body, onEvent, signal);
