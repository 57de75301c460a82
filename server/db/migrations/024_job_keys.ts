// A coaching report remembers the job that made it (its request's key): a job taken up again after its node died
// finds the report its first run committed instead of making a second one.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('coaching_reports', (t) => {
    t.string('job_key', 64).nullable().unique();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('coaching_reports', (t) => {
    t.dropUnique(['job_key']);
    t.dropColumn('job_key');
  });
}
