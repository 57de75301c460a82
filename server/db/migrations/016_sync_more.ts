// Sync, second part (docs/sync.md): more down entities (approved knowledge sources with their chunks, model and audio
// routes marked for branches, notifications, the system parameters as one entity), global ids for study notes (an up
// entity), and what the branch needs to push state (course progress, mistake book, notes) up.
import type { Knex } from 'knex';
import { isPostgres } from '../knex.js';
import { addGlobalIds, dropGlobalIds, trackChanges, untrackChanges } from './014_sync.js';

const GID_TABLES = ['knowledge_sources', 'ai_routes', 'notifications', 'study_notes'] as const;

const TRACKED: readonly (readonly [table: string, entity: string])[] = [
  ['knowledge_sources', 'knowledge'],
  ['ai_routes', 'ai_route'],
  ['notifications', 'notification'],
];

/** The system parameters travel as one row: entity `parameters`, row 0, this gid. */
export const PARAMETERS_GID = '00000000-0000-4000-8000-000000000001';
const PARAMETERS_CHANGE = `'parameters', 0, 'upsert', '${PARAMETERS_GID}'`;

async function trackParameters(db: Knex): Promise<void> {
  if (isPostgres(db)) {
    await db.raw(`CREATE OR REPLACE FUNCTION sync_track_parameters() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO sync_changes (xid, entity, row_id, op, gid) VALUES (txid_current(), ${PARAMETERS_CHANGE});
        RETURN NULL;
      END $$`);
    await db.raw(`CREATE TRIGGER system_config_sync AFTER INSERT OR UPDATE OR DELETE ON system_config FOR EACH STATEMENT EXECUTE FUNCTION sync_track_parameters()`);
    return;
  }
  for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
    await db.raw(`CREATE TRIGGER ?? AFTER ${event} ON system_config BEGIN INSERT INTO sync_changes (xid, entity, row_id, op, gid) VALUES (0, ${PARAMETERS_CHANGE}); END`, [
      `system_config_sync_${event.toLowerCase()}`,
    ]);
  }
}

export async function up(db: Knex): Promise<void> {
  await addGlobalIds(db, GID_TABLES);
  await db.schema.alterTable('ai_routes', (t) => t.boolean('for_branches').notNullable().defaultTo(false));
  // Branch: how far the state tables (updated_at) were read into the outbox, per entity (JSON).
  await db.schema.alterTable('sync_state', (t) => t.text('up_marks').nullable());
  // Branch: the state pushed up is kept as it was read (course progress has no id of its own to read it back by).
  await db.schema.alterTable('sync_outbox', (t) => t.text('payload').nullable());
  await trackChanges(db, TRACKED);
  await trackParameters(db);
  for (const [table, entity] of TRACKED) {
    await db.raw(`INSERT INTO sync_changes (entity, row_id, op, gid) SELECT ?, id, 'upsert', gid FROM ?? ORDER BY id`, [entity, table]);
  }
  await db.raw(`INSERT INTO sync_changes (entity, row_id, op, gid) VALUES (${PARAMETERS_CHANGE})`);
}

export async function down(db: Knex): Promise<void> {
  await untrackChanges(db, TRACKED);
  if (isPostgres(db)) {
    await db.raw('DROP TRIGGER IF EXISTS system_config_sync ON system_config');
    await db.raw('DROP FUNCTION IF EXISTS sync_track_parameters()');
  } else {
    for (const event of ['insert', 'update', 'delete']) await db.raw('DROP TRIGGER IF EXISTS ??', [`system_config_sync_${event}`]);
  }
  await db.schema.alterTable('sync_outbox', (t) => t.dropColumn('payload'));
  await db.schema.alterTable('sync_state', (t) => t.dropColumn('up_marks'));
  await db.schema.alterTable('ai_routes', (t) => t.dropColumn('for_branches'));
  await dropGlobalIds(db, GID_TABLES);
}
