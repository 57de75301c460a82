// Models installed through the API live in the storage (models/<name>: DATA_DIR/models on a laptop, the bucket on
// central nodes). One row per stored model says what was found when it was stored or first read: its sha256 and the
// shelf's description (kind, GGUF header…), valid while the object's size and ETag are unchanged. Every node lists
// the models from the storage and these rows, without fetching a model it does not run.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('stored_models', (t) => {
    t.string('storage_key', 300).primary();
    t.bigInteger('size').notNullable();
    t.string('etag', 200).notNullable();
    t.string('sha256', 64).notNullable();
    // The shelf's description of the model (AudioModel or ChatModelFile) as JSON; null until one is made.
    t.text('description').nullable();
    t.string('recorded_at', 32).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('stored_models');
}
