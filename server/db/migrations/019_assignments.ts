// Assignments (docs/api/assignments.md): a paper or a course for people chosen by rule (departments, positions,
// named people), who is notified of it, and each reminder's claim. Assignments sync down to branches (a gid and
// the change log), the notices and claims stay where the assignment was made.
import type { Knex } from 'knex';
import { addGlobalIds, dropGlobalIds, trackChanges, untrackChanges } from './014_sync.js';

const TRACKED = [['assignments', 'assignment']] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('assignments', (t) => {
    t.increments('id');
    t.string('title', 200).notNullable();
    t.string('item_type', 16).notNullable();
    t.integer('paper_id').nullable().references('exam_papers.id').onDelete('CASCADE');
    t.integer('course_id').nullable().references('courses.id').onDelete('CASCADE');
    t.string('starts_at', 32).nullable();
    t.string('due_at', 32).notNullable();
    t.integer('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['due_at']);
  });
  // The rule: every active user in one of the departments or positions, or named. Read at every use, so a person
  // who joins a department later is assigned and one who leaves is not counted any more.
  await db.schema.createTable('assignment_targets', (t) => {
    t.integer('assignment_id').notNullable().references('assignments.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.integer('target_id').notNullable();
    t.primary(['assignment_id', 'kind', 'target_id']);
    t.index(['kind', 'target_id']);
  });
  // Who was told of the assignment: a late joiner is told by the next scan; the key makes it once per person.
  await db.schema.createTable('assignment_notified', (t) => {
    t.integer('assignment_id').notNullable().references('assignments.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('notified_at', 32).notNullable();
    t.primary(['assignment_id', 'user_id']);
  });
  // One row per reminder (`before`, `due_day`) of an assignment made here; a scan claims it by setting sent_at where
  // it is null, in the transaction that writes the notifications, so each is sent once whatever the number of nodes.
  await db.schema.createTable('assignment_reminders', (t) => {
    t.integer('assignment_id').notNullable().references('assignments.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.string('sent_at', 32).nullable();
    t.integer('recipients').nullable();
    t.primary(['assignment_id', 'kind']);
    t.index(['sent_at']);
  });
  // What progress is computed from, found by the cheap fingerprint that tells a cached progress is still right.
  await db.schema.alterTable('users', (t) => t.index(['updated_at'], 'users_updated_at_index'));
  await db.schema.alterTable('course_progress', (t) => t.index(['course_id', 'updated_at'], 'course_progress_course_updated_index'));
  await addGlobalIds(db, ['assignments']);
  await trackChanges(db, TRACKED);
}

export async function down(db: Knex): Promise<void> {
  await untrackChanges(db, TRACKED);
  await dropGlobalIds(db, ['assignments']);
  await db.schema.alterTable('course_progress', (t) => t.dropIndex(['course_id', 'updated_at'], 'course_progress_course_updated_index'));
  await db.schema.alterTable('users', (t) => t.dropIndex(['updated_at'], 'users_updated_at_index'));
  for (const table of ['assignment_reminders', 'assignment_notified', 'assignment_targets', 'assignments']) await db.schema.dropTableIfExists(table);
}
