// A long users import runs as a job (issue 34): its state lives here so that any node of a cluster can answer
// GET /api/system/users/import/jobs/{id}. `source` holds the file's rows until the job ends; `credentials` holds the
// initial passwords sealed (AES-GCM) until the admin who started the import has read them once.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('import_jobs', (t) => {
    t.increments('id').primary();
    t.string('kind', 32).notNullable();
    t.string('status', 16).notNullable();
    t.integer('total').notNullable();
    t.integer('processed').notNullable().defaultTo(0);
    t.integer('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.text('source').nullable();
    t.text('report').nullable();
    t.text('credentials').nullable();
    t.string('error', 2000).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['status']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('import_jobs');
}
