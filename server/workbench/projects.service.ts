import type { Db } from '../db/knex.js';
import type { Project, ProjectDetail } from '../../contract/workbench.js';
import { notFound } from '../http/errors.js';
import { now } from '../db/time.js';
import { selectOwned } from './owner-scope.js';
import { searchAndPage } from '../db/paginate.js';
import type { SearchPagingFilter } from '../http/validate.js';
import { givenFields } from './fields.js';
import { listTasksOfOwners } from './tasks.repository.js';

interface ProjectRow {
  id: number;
  user_id: number;
  name: string;
  description: string;
  task_count: number | string;
  created_at: string;
  updated_at: string;
}

export interface ProjectInput {
  name?: string;
  description?: string;
}

const toProject = (row: ProjectRow): Project => ({
  id: Number(row.id),
  user_id: Number(row.user_id),
  name: row.name,
  description: row.description,
  task_count: Number(row.task_count ?? 0),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * Projects with their task counts, most recently updated first; [] for an empty owner set. `q` keeps the names
 * that contain it; `page` + `size` page the list (all when neither is given).
 */
export async function listProjectsOfOwners(db: Db, ownerIds: readonly number[], filter: SearchPagingFilter & { id?: number } = {}): Promise<Project[]> {
  const rows = await selectOwned<ProjectRow>(db, 'worker_projects', ownerIds, (query) => {
    query
      .select('worker_projects.*', db('worker_tasks').count('*').where('worker_tasks.project_id', db.ref('worker_projects.id')).as('task_count'))
      .orderBy([{ column: 'worker_projects.updated_at', order: 'desc' }, { column: 'worker_projects.id', order: 'desc' }]);
    if (filter.id !== undefined) query.where('worker_projects.id', filter.id);
    searchAndPage(query, ['worker_projects.name'], filter);
  });
  return rows.map(toProject);
}

/** The caller's project; another user's project is a 404, like a missing one. */
export async function findOwnProject(db: Db, userId: number, id: number): Promise<Project> {
  const [project] = await listProjectsOfOwners(db, [userId], { id });
  if (!project) throw notFound('Project');
  return project;
}

export async function getProjectDetail(db: Db, userId: number, id: number): Promise<ProjectDetail> {
  const project = await findOwnProject(db, userId, id);
  return { ...project, tasks: await listTasksOfOwners(db, [userId], { project_id: id }) };
}

export async function createProject(db: Db, userId: number, input: Required<Pick<ProjectInput, 'name'>> & ProjectInput): Promise<Project> {
  const stamp = now();
  const [row] = await db('worker_projects')
    .insert({ user_id: userId, name: input.name, description: input.description ?? '', created_at: stamp, updated_at: stamp })
    .returning('id');
  return findOwnProject(db, userId, Number((row as { id: number }).id));
}

export async function updateProject(db: Db, userId: number, id: number, input: ProjectInput): Promise<Project> {
  await findOwnProject(db, userId, id);
  await db('worker_projects')
    .where({ id })
    .update({ ...givenFields(input, ['name', 'description']), updated_at: now() });
  return findOwnProject(db, userId, id);
}

/** Part 3: the project goes; its tasks stay, with project_id null. */
export async function deleteProject(db: Db, userId: number, id: number): Promise<{ id: number; deleted: true }> {
  await findOwnProject(db, userId, id);
  await db.transaction(async (trx) => {
    await trx('worker_tasks').where({ project_id: id }).update({ project_id: null });
    await trx('worker_projects').where({ id }).delete();
  });
  return { id, deleted: true };
}
