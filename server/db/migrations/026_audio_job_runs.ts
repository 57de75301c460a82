// Transcription jobs on the job queue (server/jobs/): how many times a node has taken the job up. Each run claims the
// row by raising it (with `runner`, the node), so a node whose lease was taken over can no longer write the row, and
// a job taken up more often than its retries allow fails instead of running again.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('audio_jobs', (t) => {
    t.integer('attempts').notNullable().defaultTo(0);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('audio_jobs', (t) => {
    t.dropColumn('attempts');
  });
}
