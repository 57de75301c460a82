// Study notes: per-user, optionally linked to a course, a product or one of the caller's tasks.
import type { Db } from '../db/knex.js';
import { searchAndPage } from '../db/paginate.js';
import type { StudyNote } from '../../contract/workbench.js';
import { notFound, validationFailed } from '../http/errors.js';
import { toNullableNumber } from '../db/rows.js';
import { now } from '../db/time.js';
import { selectOwned } from './owner-scope.js';
import { givenFields } from './fields.js';
import { findOwnTask } from './tasks.repository.js';
import type { NoteFilter, NoteInput } from './notes.schema.js';
import { queueNoteDeletion } from '../sync/branch/deletions.js';

type NoteRow = StudyNote;

const toNote = (row: NoteRow): StudyNote => ({
  id: Number(row.id),
  user_id: Number(row.user_id),
  title: row.title,
  content: row.content,
  course_id: toNullableNumber(row.course_id),
  product_id: toNullableNumber(row.product_id),
  task_id: toNullableNumber(row.task_id),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * The owners' notes, newest first; `q` matches title or content case-insensitively; `page` + `size` page them (all
 * when neither is given). [] for an empty owner set.
 */
export async function listNotesOfOwners(db: Db, ownerIds: readonly number[], filter: NoteFilter): Promise<StudyNote[]> {
  const rows = await selectOwned<NoteRow>(db, 'study_notes', ownerIds, (query) => {
    for (const link of ['course_id', 'product_id', 'task_id'] as const) if (filter[link] !== undefined) query.where(link, filter[link]);
    query.orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
    searchAndPage(query, ['title', 'content'], filter);
  });
  return rows.map(toNote);
}

export async function getNote(db: Db, userId: number, id: number): Promise<StudyNote> {
  const row = await db<NoteRow>('study_notes').where({ id, user_id: userId }).first();
  if (!row) throw notFound('Note');
  return toNote(row);
}

/** Linked courses and products must exist (400); a linked task must be the caller's (404, as for any other user's task). */
async function checkLinks(db: Db, userId: number, input: NoteInput): Promise<void> {
  for (const [table, id] of [['courses', input.course_id], ['products', input.product_id]] as const) {
    if (id != null && !(await db(table).where({ id }).first('id'))) throw validationFailed(`${table === 'courses' ? 'Course' : 'Product'} ${id} does not exist`);
  }
  if (input.task_id != null) await findOwnTask(db, userId, input.task_id);
}

const toRow = (input: NoteInput) => givenFields(input, ['title', 'content', 'course_id', 'product_id', 'task_id']);

export async function createNote(db: Db, userId: number, input: NoteInput & { title: string }): Promise<StudyNote> {
  await checkLinks(db, userId, input);
  const stamp = now();
  const [row] = await db('study_notes')
    .insert({ content: '', ...toRow(input), user_id: userId, created_at: stamp, updated_at: stamp })
    .returning('id');
  return getNote(db, userId, Number((row as { id: number }).id));
}

export async function updateNote(db: Db, userId: number, id: number, input: NoteInput): Promise<StudyNote> {
  await getNote(db, userId, id);
  await checkLinks(db, userId, input);
  await db('study_notes').where({ id }).update({ ...toRow(input), updated_at: now() });
  return getNote(db, userId, id);
}

export async function deleteNote(db: Db, userId: number, id: number): Promise<{ id: number; deleted: true }> {
  await getNote(db, userId, id);
  await db.transaction(async (trx) => {
    await queueNoteDeletion(trx, id);
    await trx('study_notes').where({ id }).delete();
  });
  return { id, deleted: true };
}
