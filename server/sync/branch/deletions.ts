// Branch: a study note or mistake-book entry its user deletes goes up as a deletion (docs/sync.md, "Up"). Rows that
// are gone cannot be read into the outbox by their updated_at like the rest of the state, so the deletion is appended
// to it in the transaction that deletes the row (before the delete), on an enrolled branch only.
import crypto from 'node:crypto';
import type { Db } from '../../db/knex.js';
import type { PushedChange } from '../../../contract/sync.js';
import { now } from '../../db/time.js';
import { readEnrolment } from './state.js';

type Deletion = Extract<PushedChange, { entity: 'study_note_deleted' | 'mistake_deleted' }>;

async function queue(db: Db, rowId: number, describe: (deletedAt: string) => Promise<Omit<Deletion, 'change_id'> | undefined>): Promise<void> {
  if (!(await readEnrolment(db))) return;
  const stamp = now();
  const deletion = await describe(stamp);
  if (!deletion) return;
  await db('sync_outbox').insert({ change_id: crypto.randomUUID(), entity: deletion.entity, row_id: rowId, payload: JSON.stringify(deletion.data), created_at: stamp });
}

/** Queues the deletion of a study note; call it before deleting the note, in the same transaction. */
export const queueNoteDeletion = (db: Db, noteId: number): Promise<void> =>
  queue(db, noteId, async (deleted_at) => {
    const row = (await db('study_notes as n').join('users as u', 'u.id', 'n.user_id').where('n.id', noteId).first('n.gid', 'u.gid as user_gid')) as
      | { gid: string; user_gid: string }
      | undefined;
    return row && { entity: 'study_note_deleted', data: { gid: row.gid, user_gid: row.user_gid, deleted_at } };
  });

/** Queues the deletion of the user's mistake-book entry (none if it is not theirs); call it before deleting the entry, in the same transaction. */
export const queueMistakeDeletion = (db: Db, userId: number, mistakeId: number): Promise<void> =>
  queue(db, mistakeId, async (deleted_at) => {
    const row = (await db('exam_mistakes as m').join('users as u', 'u.id', 'm.user_id').join('questions as q', 'q.id', 'm.question_id').where({ 'm.id': mistakeId, 'm.user_id': userId })
      .first('u.gid as user_gid', 'q.gid as question_gid')) as { user_gid: string; question_gid: string } | undefined;
    return row && { entity: 'mistake_deleted', data: { user_gid: row.user_gid, question_gid: row.question_gid, deleted_at } };
  });
