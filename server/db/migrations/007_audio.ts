import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // One row per successful transcription; the audio itself is not kept. route and attempts are snapshots (JSON).
  await db.schema.createTable('audio_transcriptions', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('filename', 255).notNullable();
    t.bigInteger('file_size').notNullable();
    t.text('text').notNullable();
    t.string('language', 50).notNullable().defaultTo('');
    t.text('segments').notNullable();
    t.boolean('speakers_requested').notNullable();
    t.boolean('has_speakers').notNullable();
    t.text('route').notNullable();
    t.boolean('left_local').notNullable();
    t.boolean('capability_degraded').notNullable();
    t.string('capability_zh', 500).notNullable().defaultTo('');
    t.text('attempts').notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['user_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('audio_transcriptions');
}
