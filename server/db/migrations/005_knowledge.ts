import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('knowledge_sources', (t) => {
    t.increments('id');
    t.string('file_path', 1000).notNullable().unique();
    t.string('title', 500).notNullable();
    t.string('domain', 100).notNullable().defaultTo('company');
    t.string('status', 16).notNullable().defaultTo('pending');
    t.text('reject_reason').nullable();
    t.string('content_sha256', 64).notNullable();
    t.integer('products_count').notNullable().defaultTo(0);
    t.integer('chunks_count').notNullable().defaultTo(0);
    t.integer('questions_count').notNullable().defaultTo(0);
    t.string('scanned_at', 32).notNullable();
    t.string('reviewed_at', 32).nullable();
    t.integer('reviewed_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['status', 'scanned_at']);
  });
  // Which questions a source created, keyed by its stem, so approving a changed file updates them instead of adding copies.
  await db.schema.createTable('knowledge_source_questions', (t) => {
    t.integer('source_id').notNullable().references('knowledge_sources.id').onDelete('CASCADE');
    t.string('stem_key', 64).notNullable();
    t.integer('question_id').notNullable().references('questions.id').onDelete('CASCADE');
    t.primary(['source_id', 'stem_key']);
  });
  // Chunks of approved knowledge sources and approved media only: they are deleted when their origin leaves `approved`.
  await db.schema.createTable('knowledge_chunks', (t) => {
    t.increments('id');
    t.string('source_type', 16).notNullable();
    t.integer('source_id').notNullable();
    t.integer('ordinal').notNullable();
    t.string('title', 500).notNullable();
    t.text('content').notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['source_type', 'source_id']);
  });
  if (db.client.config.client === 'pg') {
    await db.raw("ALTER TABLE knowledge_chunks ADD COLUMN tsv tsvector NOT NULL DEFAULT ''::tsvector");
    await db.raw('CREATE INDEX knowledge_chunks_tsv_index ON knowledge_chunks USING gin (tsv)');
  } else {
    // Contentless (the text lives in knowledge_chunks), rowid = chunk id; contentless_delete allows plain DELETEs.
    await db.raw("CREATE VIRTUAL TABLE knowledge_chunks_fts USING fts5(terms, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')");
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['knowledge_chunks_fts', 'knowledge_chunks', 'knowledge_source_questions', 'knowledge_sources']) {
    await db.schema.dropTableIfExists(table);
  }
}
