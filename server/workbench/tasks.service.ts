import type { Db } from '../db/knex.js';
import type { Task } from '../../contract/workbench.js';
import { notify } from '../notifications/notifications.service.js';
import { taskAssigned } from '../notifications/messages.js';
import { findOwnProject } from './projects.service.js';
import { deleteTaskWithRecords, findOwnTask, updateTaskRow, type TaskPatch } from './tasks.repository.js';

export async function updateTask(db: Db, userId: number, id: number, patch: TaskPatch): Promise<Task> {
  const current = await findOwnTask(db, userId, id);
  if (patch.project_id != null) await findOwnProject(db, userId, patch.project_id);
  await updateTaskRow(db, id, patch);
  const owner = patch.owner?.trim();
  if (owner && owner !== current.owner) {
    await notify.owner(db, owner, taskAssigned({ id, title: patch.title ?? current.title }, owner));
  }
  return findOwnTask(db, userId, id);
}

export async function deleteTask(db: Db, userId: number, id: number): Promise<{ id: number; deleted: true }> {
  await findOwnTask(db, userId, id);
  await deleteTaskWithRecords(db, id);
  return { id, deleted: true };
}
