// Tasks with their runs and artifacts. Every read of a task goes through its owner.
import type { Db } from '../db/knex.js';
import type { RunInput, Task, TaskArtifact, TaskRun } from '../../contract/workbench.js';
import { notFound } from '../http/errors.js';
import { parseJson, toBool, toNullableNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { selectOwned } from './owner-scope.js';
import { searchAndPage } from '../db/paginate.js';
import type { SearchPagingFilter } from '../http/validate.js';

interface TaskRow {
  id: number;
  user_id: number;
  title: string;
  specialist_key: string;
  project_id: number | null;
  pinned: boolean | number;
  owner: string | null;
  created_at: string;
  updated_at: string;
}

interface RunRow {
  id: number;
  task_id: number;
  kind: TaskRun['kind'];
  skill_key: string | null;
  specialist_key: string;
  status: TaskRun['status'];
  input: string;
  output: string;
  error: string | null;
  route_id: number | null;
  route_name: string | null;
  route_model: string | null;
  started_at: string;
  finished_at: string | null;
}

interface ArtifactRow {
  id: number;
  task_id: number;
  run_id: number;
  kind: TaskArtifact['kind'];
  skill_key: string;
  title: string;
  content: string;
  created_at: string;
}

const toTask = (row: TaskRow): Task => ({
  id: Number(row.id),
  user_id: Number(row.user_id),
  title: row.title,
  specialist_key: row.specialist_key,
  project_id: toNullableNumber(row.project_id),
  pinned: toBool(row.pinned),
  owner: row.owner,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const toRun = (row: RunRow): TaskRun => ({
  id: Number(row.id),
  task_id: Number(row.task_id),
  kind: row.kind,
  skill_key: row.skill_key,
  specialist_key: row.specialist_key,
  status: row.status,
  input: parseJson<RunInput>(row.input, { message: '' }),
  output: row.output,
  error: row.error,
  route: row.route_name === null ? null : { id: toNullableNumber(row.route_id), name: row.route_name, model: row.route_model ?? '' },
  started_at: row.started_at,
  finished_at: row.finished_at,
});

const toArtifact = (row: ArtifactRow): TaskArtifact => {
  const base = { id: Number(row.id), task_id: Number(row.task_id), run_id: Number(row.run_id), skill_key: row.skill_key, title: row.title, created_at: row.created_at };
  return row.kind === 'table'
    ? { ...base, kind: 'table', content: parseJson(row.content, { columns: [], rows: [] }) }
    : { ...base, kind: 'report', content: row.content };
};

const TASK_ORDER = [
  { column: 'pinned', order: 'desc' },
  { column: 'updated_at', order: 'desc' },
  { column: 'id', order: 'desc' },
] as const;

/**
 * Tasks of the given owners, pinned first, then most recently updated; [] for an empty owner set. `q` keeps the
 * titles that contain it; `page` + `size` page the list (all when neither is given).
 */
export async function listTasksOfOwners(db: Db, ownerIds: readonly number[], filter: SearchPagingFilter & { project_id?: number } = {}): Promise<Task[]> {
  const rows = await selectOwned<TaskRow>(db, 'worker_tasks', ownerIds, (query) => {
    if (filter.project_id !== undefined) query.where({ project_id: filter.project_id });
    searchAndPage(query.orderBy([...TASK_ORDER]), ['title'], filter);
  });
  return rows.map(toTask);
}

/** The caller's task; another user's task is indistinguishable from a missing one (404). */
export async function findOwnTask(db: Db, userId: number, id: number): Promise<Task> {
  const row = await db<TaskRow>('worker_tasks').where({ id, user_id: userId }).first();
  if (!row) throw notFound('Task');
  return toTask(row);
}

export interface NewTask {
  user_id: number;
  title: string;
  specialist_key: string;
  project_id: number | null;
}

export async function insertTask(db: Db, task: NewTask): Promise<number> {
  const stamp = now();
  const [row] = await db('worker_tasks').insert({ ...task, pinned: false, owner: null, created_at: stamp, updated_at: stamp }).returning('id');
  return Number((row as { id: number }).id);
}

export type TaskPatch = Partial<Pick<Task, 'title' | 'pinned' | 'project_id' | 'owner'>>;

export async function updateTaskRow(db: Db, id: number, patch: TaskPatch): Promise<void> {
  await db('worker_tasks').where({ id }).update({ ...patch, updated_at: now() });
}

/** Part 3: the task goes with its artifacts and runs in one transaction; notes that linked it keep their text. */
export async function deleteTaskWithRecords(db: Db, id: number): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('worker_task_artifacts').where({ task_id: id }).delete();
    await trx('worker_task_runs').where({ task_id: id }).delete();
    await trx('study_notes').where({ task_id: id }).update({ task_id: null });
    await trx('worker_tasks').where({ id }).delete();
  });
}

export interface NewRun {
  task_id: number;
  kind: TaskRun['kind'];
  skill_key: string | null;
  specialist_key: string;
  input: RunInput;
  /** The node running it (node-id.ts). */
  runner: string;
}

export async function insertRun(db: Db, run: NewRun): Promise<number> {
  const [row] = await db('worker_task_runs')
    .insert({ ...run, input: JSON.stringify(run.input), status: 'running', output: '', started_at: now() })
    .returning('id');
  return Number((row as { id: number }).id);
}

/** Runs this node left `running` when it stopped without finishing them (a crash, a kill): they failed. */
export async function failInterruptedRuns(db: Db, runner: string): Promise<number> {
  return db('worker_task_runs')
    .where({ status: 'running' })
    .andWhere((q) => q.where({ runner }).orWhereNull('runner'))
    .update({ status: 'failed', error: 'The server stopped before the reply finished', finished_at: now() });
}

export interface RunOutcome {
  status: 'succeeded' | 'failed';
  output: string;
  error?: string;
  route?: TaskRun['route'];
}

export async function finishRun(db: Db, id: number, outcome: RunOutcome): Promise<void> {
  await db('worker_task_runs')
    .where({ id })
    .update({
      status: outcome.status,
      output: outcome.output,
      error: outcome.error ?? null,
      route_id: outcome.route?.id ?? null,
      route_name: outcome.route?.name ?? null,
      route_model: outcome.route?.model ?? null,
      finished_at: now(),
    });
}

export async function listRuns(db: Db, taskId: number): Promise<TaskRun[]> {
  return (await db<RunRow>('worker_task_runs').where({ task_id: taskId }).orderBy('id')).map(toRun);
}

export async function findRun(db: Db, taskId: number, runId: number): Promise<TaskRun> {
  const row = await db<RunRow>('worker_task_runs').where({ task_id: taskId, id: runId }).first();
  if (!row) throw notFound('Run');
  return toRun(row);
}

/** The last `limit` succeeded runs, oldest first: the conversation the model sees again. */
export async function recentRuns(db: Db, taskId: number, limit: number): Promise<TaskRun[]> {
  const rows = await db<RunRow>('worker_task_runs').where({ task_id: taskId, status: 'succeeded' }).orderBy('id', 'desc').limit(limit);
  return rows.reverse().map(toRun);
}

export async function insertArtifact(db: Db, artifact: Omit<TaskArtifact, 'id' | 'created_at'>): Promise<TaskArtifact> {
  const content = typeof artifact.content === 'string' ? artifact.content : JSON.stringify(artifact.content);
  const [row] = await db('worker_task_artifacts')
    .insert({ ...artifact, content, created_at: now() })
    .returning('*');
  return toArtifact(row as ArtifactRow);
}

export async function listArtifacts(db: Db, taskId: number): Promise<TaskArtifact[]> {
  return (await db<ArtifactRow>('worker_task_artifacts').where({ task_id: taskId }).orderBy('id')).map(toArtifact);
}

export async function findArtifact(db: Db, taskId: number, artifactId: number): Promise<TaskArtifact> {
  const row = await db<ArtifactRow>('worker_task_artifacts').where({ task_id: taskId, id: artifactId }).first();
  if (!row) throw notFound('Artifact');
  return toArtifact(row);
}
