// Exam integrity (issue 25 B): when a paper shows its answer key, the window in which it may be started, options
// shuffled per attempt, and how often the candidate left the exam window; and the forced password change of users
// created by a bulk import.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('exam_papers', (t) => {
    // always | after_pass | after_last_attempt | never
    t.string('show_answers', 24).notNullable().defaultTo('always');
    t.string('opens_at', 32).nullable();
    t.string('closes_at', 32).nullable();
    t.boolean('shuffle_options').notNullable().defaultTo(false);
  });
  await db.schema.alterTable('exam_records', (t) => {
    t.integer('leave_count').notNullable().defaultTo(0);
  });
  await db.schema.alterTable('users', (t) => {
    t.boolean('must_change_password').notNullable().defaultTo(false);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('users', (t) => t.dropColumn('must_change_password'));
  await db.schema.alterTable('exam_records', (t) => t.dropColumn('leave_count'));
  await db.schema.alterTable('exam_papers', (t) => {
    t.dropColumn('shuffle_options');
    t.dropColumn('closes_at');
    t.dropColumn('opens_at');
    t.dropColumn('show_answers');
  });
}
