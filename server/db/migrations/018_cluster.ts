// Central cluster (docs/deploy.md): the per-install secrets kept in the database, so that every node of a cluster
// signs and verifies with the same ones (generated once, under the start-up lock; server/security/secrets.ts).
// The laptop keeps them in DATA_DIR/secrets.json and never writes this table.
// A workbench run records the node that runs it (node-id.ts), so that node, started again after a crash, marks the
// runs it left `running` as failed, and no node touches another's runs in progress.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('install_secrets', (t) => {
    t.string('name', 64).primary();
    t.text('value').notNullable();
    t.string('created_at', 32).notNullable();
  });
  await db.schema.alterTable('worker_task_runs', (t) => t.string('runner', 64).nullable());
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('worker_task_runs', (t) => t.dropColumn('runner'));
  await db.schema.dropTable('install_secrets');
}
