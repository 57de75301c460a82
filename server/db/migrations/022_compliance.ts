// Compliance inspection of sales calls (docs/api/compliance.md): versioned rule sets (the shipped Chinese default
// seeded here), inspections with one row per rule result (stats and filters by rule in SQL), a gid on inspections
// (they sync up like exam records), a product's cooling-off period, and review items that come from an inspection
// rather than a coaching report (a failed critical rule is practice for the rep).
import type { Knex } from 'knex';
import { addGlobalIds, dropGlobalIds, trackChanges, untrackChanges } from './014_sync.js';
import { DEFAULT_RULES, DEFAULT_RULE_SET_GID, DEFAULT_RULE_SET_NAME } from '../../compliance/default-rules.js';

// Rule sets sync down (central-owned): a gid and the change log.
const TRACKED = [['compliance_rule_sets', 'compliance_rule_set']] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('products', (t) => {
    // Days in which the customer may cancel without cost; 0: none (the cooling_off rule does not apply).
    t.integer('cooling_off_days').notNullable().defaultTo(0);
  });
  await db.schema.createTable('compliance_rule_sets', (t) => {
    t.increments('id');
    t.string('name', 200).notNullable();
    // all | category | product; scope_value: the category, or the product id as text.
    t.string('scope', 16).notNullable();
    t.string('scope_value', 100).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.boolean('is_default').notNullable().defaultTo(false);
    t.string('status', 16).notNullable().defaultTo('active');
    // The current version's rules (JSON); every version's are in compliance_rule_set_versions.
    t.text('rules').notNullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['scope', 'scope_value']);
  });
  await db.schema.createTable('compliance_rule_set_versions', (t) => {
    t.increments('id');
    t.integer('rule_set_id').notNullable().references('compliance_rule_sets.id').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.text('rules').notNullable();
    t.string('created_at', 32).notNullable();
    t.unique(['rule_set_id', 'version']);
  });
  await db.schema.createTable('compliance_inspections', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // Not a foreign key: an inspection synced up from a branch names the branch's transcription.
    t.integer('transcription_id').notNullable();
    t.integer('revision').notNullable().defaultTo(1);
    t.integer('rule_set_id').notNullable();
    t.integer('rule_set_version').notNullable();
    t.integer('product_id').nullable().references('products.id').onDelete('SET NULL');
    t.string('department', 100).notNullable().defaultTo('');
    t.string('filename', 255).notNullable().defaultTo('');
    t.string('rep_speaker', 100).notNullable();
    t.integer('score').notNullable();
    // pass | fail
    t.string('outcome', 8).notNullable();
    t.integer('critical_failures').notNullable().defaultTo(0);
    t.string('customer_risk', 8).nullable();
    // auto | manual
    t.string('trigger', 8).notNullable();
    // results, product snapshot, second opinion (JSON).
    t.text('body').notNullable();
    // The branch device it was synced up from (central server); null: inspected here, its transcription is here.
    t.string('origin_device', 36).nullable();
    t.string('created_at', 32).notNullable();
    t.index(['user_id', 'id']);
    t.index(['transcription_id']);
    t.index(['created_at']);
  });
  await addGlobalIds(db, ['compliance_inspections']);
  await db.schema.createTable('compliance_results', (t) => {
    t.integer('inspection_id').notNullable().references('compliance_inspections.id').onDelete('CASCADE');
    t.string('rule_key', 64).notNullable();
    t.string('outcome', 16).notNullable();
    t.string('severity', 16).notNullable();
    t.primary(['inspection_id', 'rule_key']);
    t.index(['rule_key', 'outcome']);
  });
  // A review item from an inspection has no coaching report.
  await db.schema.alterTable('coaching_review_items', (t) => {
    t.integer('report_id').nullable().alter();
    t.integer('inspection_id').nullable().references('compliance_inspections.id').onDelete('CASCADE');
    t.index(['inspection_id']);
  });
  const stamp = new Date().toISOString();
  const [row] = await db('compliance_rule_sets')
    .insert({ name: DEFAULT_RULE_SET_NAME, scope: 'all', scope_value: null, version: 1, is_default: true, status: 'active', rules: JSON.stringify(DEFAULT_RULES), created_at: stamp, updated_at: stamp })
    .returning('id');
  await db('compliance_rule_set_versions').insert({ rule_set_id: Number((row as { id: number }).id), version: 1, rules: JSON.stringify(DEFAULT_RULES), created_at: stamp });
  await addGlobalIds(db, ['compliance_rule_sets']);
  // Every server seeds the same default: one gid everywhere, so the central default's edits replace the branch's.
  await db('compliance_rule_sets').where({ is_default: true }).update({ gid: DEFAULT_RULE_SET_GID });
  await trackChanges(db, TRACKED);
}

export async function down(db: Knex): Promise<void> {
  await untrackChanges(db, TRACKED);
  await dropGlobalIds(db, ['compliance_rule_sets']);
  await db('coaching_review_items').whereNotNull('inspection_id').delete();
  await db.schema.alterTable('coaching_review_items', (t) => {
    t.dropIndex(['inspection_id']);
    t.dropForeign(['inspection_id']);
    t.dropColumn('inspection_id');
  });
  await db.schema.dropTableIfExists('compliance_results');
  await dropGlobalIds(db, ['compliance_inspections']);
  await db.schema.dropTableIfExists('compliance_inspections');
  await db.schema.dropTableIfExists('compliance_rule_set_versions');
  await db.schema.dropTableIfExists('compliance_rule_sets');
  await db.schema.alterTable('products', (t) => t.dropColumn('cooling_off_days'));
}
