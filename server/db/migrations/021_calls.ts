// Calls as reps record them: how the speakers of a transcription were found (channels or voices), which of them is
// the rep by voiceprint, how much speech there was; edited revisions of a transcript (revision 1 is the recognised
// original, kept in audio_transcriptions); each user's voiceprint (the speaker embedding only, never audio); and the
// transcript revision a coaching report analysed.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('audio_transcriptions', (t) => {
    // channels | voices | null (no speakers, or a cloud route's own labels).
    t.string('speaker_method', 16).nullable();
    // {speaker, similarity} as JSON, or null.
    t.text('rep_match').nullable();
    // Seconds of speech VAD found; null when no VAD ran.
    t.double('speech_seconds').nullable();
    // The latest revision number (1: never edited).
    t.integer('revision').notNullable().defaultTo(1);
  });
  await db.schema.createTable('audio_transcript_revisions', (t) => {
    t.increments('id');
    t.integer('transcription_id').notNullable().references('audio_transcriptions.id').onDelete('CASCADE');
    // 2, 3, …: revision 1 is the original in audio_transcriptions.
    t.integer('revision').notNullable();
    t.text('text').notNullable();
    // TranscriptSegment[] as JSON.
    t.text('segments').notNullable();
    // {label: display name} as JSON.
    t.text('speaker_names').notNullable();
    t.integer('user_id').nullable().references('users.id').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.unique(['transcription_id', 'revision']);
  });
  await db.schema.createTable('audio_voiceprints', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    // The speaker embedding as a JSON array of numbers, and the model (file name and sha256) that made it.
    t.text('embedding').notNullable();
    t.string('model', 255).notNullable();
    t.string('model_sha256', 64).notNullable();
    t.double('speech_seconds').notNullable();
    t.string('created_at', 32).notNullable();
  });
  await db.schema.alterTable('coaching_reports', (t) => {
    t.integer('transcript_revision').notNullable().defaultTo(1);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('coaching_reports', (t) => t.dropColumn('transcript_revision'));
  await db.schema.dropTable('audio_voiceprints');
  await db.schema.dropTable('audio_transcript_revisions');
  await db.schema.alterTable('audio_transcriptions', (t) => {
    t.dropColumn('speaker_method');
    t.dropColumn('rep_match');
    t.dropColumn('speech_seconds');
    t.dropColumn('revision');
  });
}
