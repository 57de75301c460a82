// Offline speech for call recordings: transcription jobs, the sha256 cache of model files, what a transcription
// knows of its audio, the purpose of a chunked upload (media or a model install), and the call_analysis skill.
import type { Knex } from 'knex';
import { up as addMissingBuiltinSkills } from './008_builtin_skills.js';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('audio_jobs', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // queued | running | done | failed | cancelled
    t.string('state', 16).notNullable();
    t.string('stage', 16).notNullable();
    t.integer('percent').notNullable().defaultTo(0);
    t.string('filename', 255).notNullable();
    t.bigInteger('file_size').notNullable();
    t.text('audio').notNullable();
    // language, speakers_requested, channel_names, allow_cloud
    t.text('options').notNullable();
    t.text('route').nullable();
    t.integer('transcription_id').nullable();
    t.text('error').nullable();
    // host and DATA_DIR of the server running it: after a restart that server fails what it left running.
    t.string('runner', 500).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('started_at', 32).nullable();
    t.string('finished_at', 32).nullable();
    t.index(['user_id', 'id']);
    t.index(['state']);
  });
  await db.schema.createTable('audio_model_hashes', (t) => {
    t.string('file_path', 1000).primary();
    t.bigInteger('size').notNullable();
    t.bigInteger('mtime_ms').notNullable();
    t.string('sha256', 64).notNullable();
    t.string('computed_at', 32).notNullable();
  });
  await db.schema.alterTable('audio_transcriptions', (t) => {
    t.text('audio').nullable();
    t.integer('job_id').nullable();
  });
  await db.schema.alterTable('upload_sessions', (t) => {
    t.string('purpose', 16).notNullable().defaultTo('media');
    t.string('expected_sha256', 64).nullable();
  });
  await addMissingBuiltinSkills(db);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('upload_sessions', (t) => {
    t.dropColumn('purpose');
    t.dropColumn('expected_sha256');
  });
  await db.schema.alterTable('audio_transcriptions', (t) => {
    t.dropColumn('audio');
    t.dropColumn('job_id');
  });
  await db.schema.dropTableIfExists('audio_model_hashes');
  await db.schema.dropTableIfExists('audio_jobs');
}
