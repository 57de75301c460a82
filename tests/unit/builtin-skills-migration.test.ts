// Migration 008 on an install from before call_review existed: the skill arrives, the general assistant offers it
// after the skills it had, and nothing changes when the skill is already there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/knex.js';
import { migrationSource } from '../../server/db/migrations/index.js';

test('built-in skills added later reach an existing install once', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-migration-'));
  const db = await openDatabase({ dataDir });
  try {
    const allowed = async () => JSON.parse((await db('specialists').where({ key: 'general_assistant' }).first('allowed_skills')).allowed_skills) as string[];
    const skills = () => db('workbench_definitions').where({ object_kind: 'skill', key: 'call_review' }).count({ n: '*' }).first();
    // As an install migrated before 008 looks: no call_review, an assistant with its own order of skills.
    await db('workbench_definitions').where({ key: 'call_review' }).delete();
    await db('specialists').where({ key: 'general_assistant' }).update({ allowed_skills: JSON.stringify(['document_summary', 'batch_extraction']) });
    await db('knex_migrations').where({ name: '008_builtin_skills' }).delete();

    await db.migrate.latest({ migrationSource });
    assert.equal(Number((await skills())?.n), 1);
    assert.deepEqual(await allowed(), ['document_summary', 'batch_extraction', 'call_review']);

    await db('knex_migrations').where({ name: '008_builtin_skills' }).delete();
    await db.migrate.latest({ migrationSource });
    assert.equal(Number((await skills())?.n), 1, 'run again, it adds nothing');
    assert.deepEqual(await allowed(), ['document_summary', 'batch_extraction', 'call_review']);
  } finally {
    await db.destroy();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
