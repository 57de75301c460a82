// Stopping the central job queue lets the process exit (PostgreSQL pass only). Eighteen pg-boss workers poll over
// three connections, so at start most polls wait for a connection; a queue stopped then used to end its pool under
// them: pg's Pool never answers a waiting query once ended, pg-boss waited for those workers for ever, and the test
// files of the PostgreSQL pass now and then hung after their last test until the runner's timeout.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import knexFactory from 'knex';
import { jobsSchemaOf } from '../../server/jobs/pg-boss.js';
import { usingPostgres } from '../support/server.js';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const root = path.resolve(import.meta.dirname, '../..');

/** Runs the child; resolves with its output and whether it exited within `withinMs` (it is killed otherwise). */
function runChild(schema: string, withinMs: number): Promise<{ exited: boolean; code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'tests/support/job-queue-stop-child.ts'), POSTGRES_URL, schema], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ exited: false, code: null, output });
    }, withinMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ exited: true, code, output });
    });
  });
}

describe('stopping the pg-boss job queue', { skip: !usingPostgres && 'PostgreSQL pass only' }, () => {
  const schemas: string[] = [];
  after(async () => {
    const admin = knexFactory({ client: 'pg', connection: POSTGRES_URL });
    for (const schema of schemas) await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [jobsSchemaOf(schema)]);
    await admin.destroy();
  });

  test('a queue stopped while its workers wait for a connection lets the process exit, every time', async () => {
    for (let round = 0; round < 3; round++) {
      const schema = `tq_${crypto.randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      const { exited, code, output } = await runChild(schema, 30_000);
      assert.match(output, /^stopped$/m, `round ${round}: stop() returned\n${output}`);
      assert.ok(exited, `round ${round}: the process exited by itself after stop()\n${output}`);
      assert.equal(code, 0, output);
    }
  });
});
