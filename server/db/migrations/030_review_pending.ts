// Exam submits' answers waiting to become review events (server/review/pending-events.ts): the submit's transaction
// writes one row per submit, and the cards are derived from these rows just after the commit, in batches. A row is
// deleted in the transaction that derives it, so a kill in between leaves it here to be derived at the next start.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('review_pending', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('session_id', 64).notNullable();
    // The paper of a formal submit (whether its answer key may show yet decides what a card may reveal), else null.
    t.integer('paper_id').nullable();
    // formal | self_test | retry
    t.string('origin', 16).notNullable();
    // The review clock at the submit: the events' reviewed_at, whenever they are derived.
    t.string('at', 32).notNullable();
    // [[question_id, correct (0/1), answer], …] as JSON.
    t.text('answers').notNullable();
    // A person's pending rows are looked for before each review read of theirs.
    t.index(['user_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('review_pending');
}
