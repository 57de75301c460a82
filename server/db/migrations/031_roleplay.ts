// AI role-play (docs/api/roleplay.md): scenarios the training team writes (they sync down, like papers), the
// sessions reps play with their turns and report (they sync up once finished, like exam records), and a scenario as
// an assignment's item.
import type { Knex } from 'knex';
import { trackChanges, untrackChanges } from './014_sync.js';

const TRACKED = [['roleplay_scenarios', 'roleplay_scenario']] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('roleplay_scenarios', (t) => {
    t.increments('id');
    t.string('gid', 36).notNullable().unique();
    t.string('title', 200).notNullable();
    t.integer('product_id').nullable().references('products.id').onDelete('SET NULL');
    // JSON: {name, profile, risk_tolerance}; objections and criteria are JSON arrays.
    t.text('persona').notNullable();
    t.text('opening').notNullable();
    t.text('objections').notNullable();
    t.text('closing').notNullable();
    t.text('criteria').notNullable();
    t.integer('pass_score').notNullable();
    t.integer('max_turns').notNullable();
    t.string('status', 16).notNullable().defaultTo('active');
    t.integer('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['status']);
  });
  await trackChanges(db, TRACKED);
  await db.schema.createTable('roleplay_sessions', (t) => {
    t.increments('id');
    t.string('gid', 36).notNullable().unique();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('scenario_id').notNullable().references('roleplay_scenarios.id').onDelete('CASCADE');
    t.string('status', 16).notNullable();
    t.string('mode', 16).notNullable();
    // JSON array of turns {index, speaker, text, flags?}: a session is read and written whole, one turn at a time.
    t.text('turns').notNullable();
    t.integer('score').nullable();
    t.boolean('passed').nullable();
    // JSON {criteria, compliance, practice_item_ids} once finished.
    t.text('report').nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.string('finished_at', 32).nullable();
    // Pushed to the central server (a branch), or received from a branch (central): null while only local.
    t.string('synced_at', 32).nullable();
    t.boolean('from_branch').notNullable().defaultTo(false);
    t.index(['user_id', 'created_at']);
    t.index(['scenario_id', 'status']);
  });
  // A plain ADD COLUMN: knex would rebuild the SQLite table for a foreign key, dropping its sync and gid triggers.
  await db.raw('ALTER TABLE assignments ADD COLUMN scenario_id integer NULL REFERENCES roleplay_scenarios (id) ON DELETE CASCADE');
  // A missed criterion's practice item points at its session, as a compliance one points at its inspection.
  await db.schema.alterTable('coaching_review_items', (t) => {
    t.integer('roleplay_session_id').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('coaching_review_items', (t) => t.dropColumn('roleplay_session_id'));
  await db.schema.alterTable('assignments', (t) => t.dropColumn('scenario_id'));
  await untrackChanges(db, TRACKED);
  await db.schema.dropTableIfExists('roleplay_sessions');
  await db.schema.dropTableIfExists('roleplay_scenarios');
}
