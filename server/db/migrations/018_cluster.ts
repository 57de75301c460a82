// Central cluster (docs/deploy.md): the per-install secrets kept in the database, so that every node of a cluster
// signs and verifies with the same ones (generated once, under the start-up lock; server/security/secrets.ts).
// The laptop keeps them in DATA_DIR/secrets.json and never writes this table.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('install_secrets', (t) => {
    t.string('name', 64).primary();
    t.text('value').notNullable();
    t.string('created_at', 32).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('install_secrets');
}
