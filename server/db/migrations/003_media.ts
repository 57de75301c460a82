import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('media_files', (t) => {
    t.increments('id');
    t.string('filename', 255).notNullable();
    t.string('file_ext', 16).notNullable().defaultTo('');
    t.string('mime_type', 127).notNullable();
    t.bigInteger('size').notNullable();
    // The file's name under DATA_DIR/media/files: generated, never derived from the client's filename.
    t.string('storage_key', 64).notNullable().unique();
    t.string('bind_type', 16).notNullable().defaultTo('none');
    t.integer('bind_id').nullable();
    t.string('status', 16).notNullable().defaultTo('pending');
    t.text('reject_reason').nullable();
    t.text('remark').notNullable().defaultTo('');
    t.integer('uploaded_by').nullable().references('users.id').onDelete('SET NULL');
    t.integer('reviewed_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('reviewed_at', 32).nullable();
    t.string('extraction_state', 16).notNullable().defaultTo('not_started');
    t.integer('extraction_progress').notNullable().defaultTo(0);
    t.string('extraction_stage', 32).notNullable().defaultTo('');
    t.integer('extraction_chunks').notNullable().defaultTo(0);
    t.text('extraction_error').nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['status', 'id']);
    t.index(['bind_type', 'bind_id', 'status']);
    t.index(['extraction_state']);
  });
  await db.schema.createTable('upload_sessions', (t) => {
    t.string('id', 36).primary();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('filename', 255).notNullable();
    t.bigInteger('file_size').notNullable();
    t.integer('chunk_size').notNullable();
    t.integer('chunk_count').notNullable();
    t.string('bind_type', 16).notNullable().defaultTo('none');
    t.integer('bind_id').nullable();
    t.string('status', 16).notNullable().defaultTo('open');
    t.integer('media_id').nullable().references('media_files.id').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    // Last activity: abandoned sessions are swept after upload_session_ttl_hours without any.
    t.string('updated_at', 32).notNullable();
    t.index(['updated_at']);
  });
  await db.schema.createTable('upload_chunks', (t) => {
    t.string('upload_id', 36).notNullable().references('upload_sessions.id').onDelete('CASCADE');
    t.integer('chunk_index').notNullable();
    t.integer('size').notNullable();
    t.string('received_at', 32).notNullable();
    t.primary(['upload_id', 'chunk_index']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['upload_chunks', 'upload_sessions', 'media_files']) await db.schema.dropTableIfExists(table);
}
