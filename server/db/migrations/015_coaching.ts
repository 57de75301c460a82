// From a customer call to coaching: the kept audio of a transcription (so a quote can be played from its timestamp),
// coaching reports, the rep's review list of misstated facts, and draft exam questions awaiting an admin's review.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('audio_transcriptions', (t) => {
    // File name under DATA_DIR/audio/recordings and its MIME type; null when the audio was not kept.
    t.string('recording', 255).nullable();
    t.string('recording_mime', 100).nullable();
  });
  await db.schema.createTable('coaching_reports', (t) => {
    t.increments('id');
    // The rep: the owner of the transcription the report was made from.
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('transcription_id').notNullable().references('audio_transcriptions.id').onDelete('CASCADE');
    // The task run the transcript came from, when it came through one (kept as numbers: tasks can be deleted).
    t.integer('task_id').nullable();
    t.integer('run_id').nullable();
    t.string('rep_speaker', 100).notNullable();
    t.integer('product_id').nullable().references('products.id').onDelete('SET NULL');
    t.string('filename', 255).notNullable();
    t.integer('objection_count').notNullable().defaultTo(0);
    t.integer('misstated_count').notNullable().defaultTo(0);
    // complete | unavailable | failed: how the model part went.
    t.string('model_status', 16).notNullable();
    // The analysis as JSON: figures, objections, facts, practice, scenario, parts, product and transcript snapshots.
    t.text('body').notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['user_id', 'id']);
    t.index(['product_id']);
  });
  await db.schema.createTable('coaching_review_items', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('report_id').notNullable().references('coaching_reports.id').onDelete('CASCADE');
    t.string('finding_id', 32).notNullable();
    // label, claim, stated, correct, explanation, segments, citations (JSON).
    t.text('body').notNullable();
    t.boolean('mastered').notNullable().defaultTo(false);
    t.string('mastered_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['user_id', 'mastered', 'id']);
    t.index(['report_id']);
  });
  await db.schema.createTable('coaching_question_drafts', (t) => {
    t.increments('id');
    t.integer('report_id').notNullable().references('coaching_reports.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('finding_id', 32).notNullable();
    t.string('domain', 100).notNullable();
    t.string('type', 16).notNullable();
    t.text('stem').notNullable();
    t.text('options').notNullable();
    t.text('answer').notNullable();
    t.text('explanation').notNullable();
    // segments and citations the question rests on (JSON).
    t.text('provenance').notNullable();
    // pending | approved | rejected
    t.string('status', 16).notNullable().defaultTo('pending');
    t.text('reject_reason').nullable();
    t.integer('question_id').nullable().references('questions.id').onDelete('SET NULL');
    t.integer('reviewed_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('reviewed_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['status', 'id']);
    t.index(['report_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('coaching_question_drafts');
  await db.schema.dropTableIfExists('coaching_review_items');
  await db.schema.dropTableIfExists('coaching_reports');
  await db.schema.alterTable('audio_transcriptions', (t) => {
    t.dropColumn('recording');
    t.dropColumn('recording_mime');
  });
}
