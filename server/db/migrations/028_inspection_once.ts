// One inspection per call revision, rep, product and rule-set version (compliance/inspections.service.ts): a key
// unique where set, so simultaneous requests on any node store one row. Older rows and rows received from branches
// have none and stay as they are.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('compliance_inspections', (t) => {
    t.string('dedupe_key', 400).nullable();
    t.unique(['dedupe_key'], { indexName: 'compliance_inspections_dedupe_key_unique' });
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('compliance_inspections', (t) => {
    t.dropUnique(['dedupe_key'], 'compliance_inspections_dedupe_key_unique');
    t.dropColumn('dedupe_key');
  });
}
