import { api } from '../../api/client';
import { postEventStream } from '../../api/event-stream';
import type { Specialist, Task, TaskRun, WorkerChatEvent } from '../../api/types';

export const workbenchKeys = {
  all: 'workbench',
  tasks: 'workbench/tasks',
  runs: (taskId: number) => `workbench/runs/${taskId}`,
  specialists: 'workbench/specialists',
};

export const listMyTasks = (signal?: AbortSignal) => api.get<Task[]>('/worker/my-tasks', { signal });
export const listRuns = (taskId: number, signal?: AbortSignal) => api.get<TaskRun[]>(`/worker/my-tasks/${taskId}/runs`, { signal });
export const listSpecialists = (signal?: AbortSignal) => api.get<Specialist[]>('/specialists', { signal });

export interface WorkerMessage {
  message: string;
  task_id?: number;
  specialist_key?: string;
}

/** One exchange with the digital worker: the first event names the task (new or continued), then text, then done. */
export const sendWorkerMessage = (body: WorkerMessage, onEvent: (event: WorkerChatEvent) => void, signal: AbortSignal) =>
  postEventStream<WorkerChatEvent>('/worker/chat', body, onEvent, signal);
