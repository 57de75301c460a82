// Store-and-forward sync between branch laptops and the central server (docs/sync.md): a global id on every synced
// row, question and paper versions, the central change log (filled by triggers, so every write path is covered),
// devices, received changes, the branch's sync state, outbox and file queue, the audit log and login throttling.
import type { Knex } from 'knex';
import { isPostgres } from '../knex.js';

/** Tables whose rows carry a global id (uuid). */
export const GID_TABLES = ['departments', 'positions', 'users', 'products', 'courses', 'questions', 'exam_papers', 'media_files', 'exam_records', 'certificates'] as const;

/** Tables whose writes are logged for the pull (central wins), and the entity name each one's changes carry. */
export const TRACKED: readonly (readonly [table: string, entity: string])[] = [
  ['departments', 'department'],
  ['positions', 'position'],
  ['users', 'user'],
  ['products', 'product'],
  ['courses', 'course'],
  ['questions', 'question'],
  ['exam_papers', 'paper'],
  ['media_files', 'media'],
];

// A random version-4 uuid in SQLite's SQL (PostgreSQL has gen_random_uuid()).
const SQLITE_UUID =
  "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || " +
  "substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))";

/** A gid column on each table: filled for the rows there, and for every insert that names none. */
export async function addGlobalIds(db: Knex, tables: readonly string[] = GID_TABLES): Promise<void> {
  const pg = isPostgres(db);
  for (const table of tables) {
    if (pg) {
      // The default fills existing rows and every insert that names no gid.
      await db.raw(`ALTER TABLE ?? ADD COLUMN gid varchar(36) NOT NULL DEFAULT gen_random_uuid()::text`, [table]);
    } else {
      // SQLite cannot add a column with a computed default: fill the rows, then a trigger fills every new one.
      await db.raw(`ALTER TABLE ?? ADD COLUMN gid varchar(36)`, [table]);
      await db.raw(`UPDATE ?? SET gid = ${SQLITE_UUID}`, [table]);
      await db.raw(`CREATE TRIGGER ?? AFTER INSERT ON ?? WHEN NEW.gid IS NULL BEGIN UPDATE ?? SET gid = ${SQLITE_UUID} WHERE id = NEW.id; END`, [`${table}_gid`, table, table]);
    }
    await db.schema.alterTable(table, (t) => t.unique(['gid'], { indexName: `${table}_gid_unique` }));
  }
}

/** Every insert, update and delete of a tracked table appends to sync_changes (with the writing transaction's id on PostgreSQL). */
export async function trackChanges(db: Knex, tracked: readonly (readonly [string, string])[] = TRACKED): Promise<void> {
  if (isPostgres(db)) {
    await db.raw(`CREATE OR REPLACE FUNCTION sync_track() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          INSERT INTO sync_changes (xid, entity, row_id, op, gid) VALUES (txid_current(), TG_ARGV[0], OLD.id, 'delete', OLD.gid);
          RETURN OLD;
        END IF;
        INSERT INTO sync_changes (xid, entity, row_id, op, gid) VALUES (txid_current(), TG_ARGV[0], NEW.id, 'upsert', NEW.gid);
        RETURN NEW;
      END $$`);
    for (const [table, entity] of tracked) {
      await db.raw(`CREATE TRIGGER ?? AFTER INSERT OR UPDATE OR DELETE ON ?? FOR EACH ROW EXECUTE FUNCTION sync_track('${entity}')`, [`${table}_sync`, table]);
    }
    return;
  }
  for (const [table, entity] of tracked) {
    for (const [event, row, op] of [['INSERT', 'NEW', 'upsert'], ['UPDATE', 'NEW', 'upsert'], ['DELETE', 'OLD', 'delete']] as const) {
      await db.raw(
        `CREATE TRIGGER ?? AFTER ${event} ON ?? BEGIN INSERT INTO sync_changes (xid, entity, row_id, op, gid) VALUES (0, '${entity}', ${row}.id, '${op}', ${row}.gid); END`,
        [`${table}_sync_${event.toLowerCase()}`, table],
      );
    }
  }
}

async function createTables(db: Knex): Promise<void> {
  await db.schema.alterTable('questions', (t) => t.integer('version').notNullable().defaultTo(1));
  await db.schema.alterTable('exam_papers', (t) => t.integer('version').notNullable().defaultTo(1));
  // Every version of a question's grading content the server issued; pushed records are re-graded against these.
  await db.schema.createTable('question_versions', (t) => {
    t.string('question_gid', 36).notNullable();
    t.integer('version').notNullable();
    t.string('type', 20).notNullable();
    t.text('options').notNullable();
    t.text('answer').notNullable();
    t.string('created_at', 32).notNullable();
    t.primary(['question_gid', 'version']);
  });
  await db.schema.createTable('paper_versions', (t) => {
    t.string('paper_gid', 36).notNullable();
    t.integer('version').notNullable();
    t.integer('total_score').notNullable();
    t.integer('pass_score').notNullable();
    t.string('created_at', 32).notNullable();
    t.primary(['paper_gid', 'version']);
  });
  await db.schema.createTable('sync_changes', (t) => {
    t.bigIncrements('seq');
    // The writing transaction (PostgreSQL txid; 0 on SQLite, which commits one writer at a time in order).
    t.bigInteger('xid').notNullable().defaultTo(0);
    t.string('entity', 32).notNullable();
    t.integer('row_id').notNullable();
    t.string('op', 8).notNullable();
    t.string('gid', 36).nullable();
    t.index(['xid', 'seq']);
  });
  // Central: enrolled (or waiting) branch devices.
  await db.schema.createTable('sync_devices', (t) => {
    t.increments('id');
    t.string('gid', 36).notNullable().unique();
    t.string('name', 100).notNullable();
    t.string('enrolment_token_hash', 64).nullable().unique();
    t.string('enrolment_expires_at', 32).nullable();
    t.string('enrolled_at', 32).nullable();
    t.string('credential_hash', 64).nullable().unique();
    t.string('revoked_at', 32).nullable();
    t.string('flagged_at', 32).nullable();
    t.text('flag_reason').nullable();
    t.string('app_version', 32).nullable();
    t.string('last_seen_at', 32).nullable();
    t.string('last_push_at', 32).nullable();
    t.integer('pushed_total').notNullable().defaultTo(0);
    t.integer('refused_total').notNullable().defaultTo(0);
    t.string('last_pull_at', 32).nullable();
    t.text('last_pull_cursor').nullable();
    t.integer('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
  });
  // Central: every change a device pushed, by its change id (what makes a push idempotent), and what became of it.
  await db.schema.createTable('sync_received', (t) => {
    t.string('change_id', 36).primary();
    t.integer('device_id').notNullable().references('sync_devices.id').onDelete('CASCADE');
    t.string('entity', 32).notNullable();
    t.string('outcome', 16).notNullable();
    t.text('reason').nullable();
    t.string('received_at', 32).notNullable();
    t.index(['device_id', 'outcome']);
  });
  // Branch: the enrolment (one row) and where the sync stands.
  await db.schema.createTable('sync_state', (t) => {
    t.integer('id').primary();
    t.string('central_url', 500).notNullable();
    t.text('ca_cert').nullable();
    t.integer('device_id').notNullable();
    t.string('device_gid', 36).notNullable();
    t.string('credential', 128).notNullable();
    t.text('cursor').nullable();
    t.string('last_success_at', 32).nullable();
    t.text('last_error').nullable();
    t.string('updated_at', 32).notNullable();
  });
  // Branch: what waits to go up. Rows are appended from the records themselves (a high-water mark per entity).
  await db.schema.createTable('sync_outbox', (t) => {
    t.increments('seq');
    t.string('change_id', 36).notNullable().unique();
    t.string('entity', 32).notNullable();
    t.integer('row_id').notNullable();
    t.string('created_at', 32).notNullable();
    t.string('sent_at', 32).nullable();
    // accepted | refused | conflict, as the central server answered.
    t.string('outcome', 16).nullable();
    t.text('reason').nullable();
    t.index(['entity', 'row_id']);
    t.index(['sent_at', 'seq']);
  });
  // Branch: files to download (approved media), resumed from the bytes already on disk.
  await db.schema.createTable('sync_files', (t) => {
    t.string('gid', 36).primary();
    t.string('sha256', 64).notNullable();
    t.bigInteger('size').notNullable();
    t.bigInteger('received').notNullable().defaultTo(0);
    t.string('done_at', 32).nullable();
    t.text('last_error').nullable();
    t.string('updated_at', 32).notNullable();
  });
  await db.schema.alterTable('media_files', (t) => t.string('sha256', 64).nullable());
  await db.schema.createTable('audit_log', (t) => {
    t.increments('id');
    t.string('at', 32).notNullable();
    t.string('action', 64).notNullable();
    t.integer('user_id').nullable();
    t.string('username', 64).nullable();
    t.integer('device_id').nullable();
    t.string('address', 64).nullable();
    t.string('target', 200).notNullable().defaultTo('');
    t.text('detail').notNullable().defaultTo('{}');
    t.index(['at']);
    t.index(['action', 'at']);
  });
  // Failed logins per key ("account:<name>", "account:<name>@<address>" for admins, "address:<ip>").
  await db.schema.createTable('login_throttle', (t) => {
    t.string('key', 200).primary();
    t.integer('failures').notNullable();
    t.string('window_start', 32).notNullable();
    t.string('locked_until', 32).nullable();
  });
}

/** Versions 1 of what exists, and one change per existing row so that a first pull sends everything. */
async function seed(db: Knex): Promise<void> {
  const stamp = new Date().toISOString();
  await db.raw(`INSERT INTO question_versions (question_gid, version, type, options, answer, created_at) SELECT gid, version, type, options, answer, ? FROM questions`, [stamp]);
  await db.raw(`INSERT INTO paper_versions (paper_gid, version, total_score, pass_score, created_at) SELECT gid, version, total_score, pass_score, ? FROM exam_papers`, [stamp]);
  for (const [table, entity] of TRACKED) {
    await db.raw(`INSERT INTO sync_changes (entity, row_id, op, gid) SELECT ?, id, 'upsert', gid FROM ?? ORDER BY id`, [entity, table]);
  }
}

export async function up(db: Knex): Promise<void> {
  await createTables(db);
  await addGlobalIds(db);
  await trackChanges(db);
  await seed(db);
}

/** Drops the change triggers of the tables (the trigger function stays while any table uses it). */
export async function untrackChanges(db: Knex, tracked: readonly (readonly [string, string])[]): Promise<void> {
  for (const [table] of tracked) {
    if (isPostgres(db)) await db.raw('DROP TRIGGER IF EXISTS ?? ON ??', [`${table}_sync`, table]);
    else for (const event of ['insert', 'update', 'delete']) await db.raw('DROP TRIGGER IF EXISTS ??', [`${table}_sync_${event}`]);
  }
}

export async function dropGlobalIds(db: Knex, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    if (!isPostgres(db)) await db.raw('DROP TRIGGER IF EXISTS ??', [`${table}_gid`]);
    await db.schema.alterTable(table, (t) => {
      t.dropUnique(['gid'], `${table}_gid_unique`);
      t.dropColumn('gid');
    });
  }
}

export async function down(db: Knex): Promise<void> {
  const pg = isPostgres(db);
  await untrackChanges(db, TRACKED);
  if (pg) await db.raw('DROP FUNCTION IF EXISTS sync_track()');
  await dropGlobalIds(db, GID_TABLES);
  await db.schema.alterTable('media_files', (t) => t.dropColumn('sha256'));
  await db.schema.alterTable('questions', (t) => t.dropColumn('version'));
  await db.schema.alterTable('exam_papers', (t) => t.dropColumn('version'));
  for (const table of ['login_throttle', 'audit_log', 'sync_files', 'sync_outbox', 'sync_state', 'sync_received', 'sync_devices', 'sync_changes', 'paper_versions', 'question_versions']) {
    await db.schema.dropTableIfExists(table);
  }
}
