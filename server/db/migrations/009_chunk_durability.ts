// A received chunk is on disk only once its file was flushed after it was written: until then a power cut can lose
// it while its row says it arrived. Rows written before this migration count as on disk.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('upload_chunks', (t) => {
    t.boolean('on_disk').notNullable().defaultTo(true);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('upload_chunks', (t) => {
    t.dropColumn('on_disk');
  });
}
