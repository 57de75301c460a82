// Spaced review (docs/architecture.md, "Spaced review"): one FSRS card per person and thing to remember (a question
// they got wrong, a practice item from coaching or compliance) and the append-only log of its reviews. The card is
// derived: replaying its log with ts-fsrs gives it again, which is how the central server merges two laptops.
import type { Knex } from 'knex';
import { trackChanges, untrackChanges } from './014_sync.js';

const TRACKED = [['review_cards', 'review_card']] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('review_cards', (t) => {
    t.increments('id');
    // A question card's gid is derived from its user's and question's gids, so two laptops make the same card.
    t.string('gid', 36).notNullable().unique();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable(); // question | practice
    t.integer('question_id').nullable().references('questions.id').onDelete('CASCADE');
    // A practice card: the local practice item (coaching review item) and what it asks to remember (JSON), which
    // travels with the card since practice items stay on the laptop that made them.
    t.integer('practice_item_id').nullable();
    t.text('prompt').nullable();
    // The FSRS state (ts-fsrs Card), derived from the log.
    t.string('due', 32).notNullable();
    t.double('stability').notNullable().defaultTo(0);
    t.double('difficulty').notNullable().defaultTo(0);
    t.integer('elapsed_days').notNullable().defaultTo(0);
    t.integer('scheduled_days').notNullable().defaultTo(0);
    t.integer('learning_steps').notNullable().defaultTo(0);
    t.integer('reps').notNullable().defaultTo(0);
    t.integer('lapses').notNullable().defaultTo(0);
    t.integer('state').notNullable().defaultTo(0);
    t.string('last_review', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.unique(['user_id', 'question_id']);
    t.unique(['user_id', 'practice_item_id']);
    // The queue counts and draws a person's due cards from this index alone (question_id: is its question disabled?).
    t.index(['user_id', 'due', 'question_id']);
    t.index(['question_id']);
  });
  await db.schema.createTable('review_log', (t) => {
    t.increments('id');
    // The change id it syncs up with; derived for events that two machines may both record (a re-graded exam).
    t.string('gid', 36).notNullable().unique();
    t.integer('card_id').notNullable().references('review_cards.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // ts-fsrs Rating: 1 Again, 2 Hard, 3 Good, 4 Easy; 0 = the card was made (a practice item), no review.
    t.integer('rating').notNullable();
    t.string('reviewed_at', 32).notNullable();
    // exam | self_test | retry | review | practice | created
    t.string('origin', 16).notNullable();
    t.boolean('correct').nullable();
    t.text('answer').nullable();
    // Came down from the central server (not pushed back up).
    t.boolean('from_central').notNullable().defaultTo(false);
    t.string('created_at', 32).notNullable();
    // Covers the replay: a card's events in log order with their ratings, read from the index alone.
    t.index(['card_id', 'reviewed_at', 'gid', 'rating']);
    t.index(['user_id', 'reviewed_at']);
  });
  await trackChanges(db, TRACKED);
}

export async function down(db: Knex): Promise<void> {
  await untrackChanges(db, TRACKED);
  await db.schema.dropTableIfExists('review_log');
  await db.schema.dropTableIfExists('review_cards');
}
