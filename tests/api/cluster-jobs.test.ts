// Background jobs on the central server are claimed with a lease (server/jobs/pg-boss.ts): a node killed with SIGKILL
// in the middle of a text extraction loses its lease, and another node takes the job over and finishes it.
// The two nodes share one folder for the media file here (a bucket in production, see docs/deploy.md).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import knexFactory from 'knex';
import { ADMIN_PASSWORD, usingPostgres } from '../support/server.js';
import { startCli, stopCli, type StartedCli } from '../support/cli.js';
import { ApiClient } from '../support/client.js';
import { approve, uploadOk } from './media-fixtures.js';
import { until } from '../support/until.js';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('a job whose node dies', { skip: !usingPostgres && 'leases are the central server’s (pg-boss on PostgreSQL); checked in the PostgreSQL pass' }, () => {
  const schema = `tb_${crypto.randomBytes(6).toString('hex')}`;
  let dataDir = '';
  const nodes: StartedCli[] = [];
  after(async () => {
    for (const node of nodes) await stopCli(node.child, 'SIGKILL');
    const admin = knexFactory({ client: 'pg', connection: POSTGRES_URL });
    for (const each of [schema, `${schema}_jobs`]) await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [each]);
    await admin.destroy();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('an extraction running on a node killed with SIGKILL is finished by another node', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-jobs-'));
    const env = { DATA_DIR: dataDir, PORT: '0', KNOWLEDGE_DIR: path.join(dataDir, 'k'), DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, ADMIN_PASSWORD, JOB_LEASE_SECONDS: '5', JOB_MAINTENANCE_SECONDS: '1' };
    const first = await startCli(env);
    nodes.push(first);
    const a = new ApiClient(first.url);
    const token = await a.login('admin', ADMIN_PASSWORD);
    // Enough text that chunking and indexing it takes a while.
    const lines = Array.from({ length: 120_000 }, (_, i) => `第${i}条 理财产品说明：风险等级、申购赎回规则与费率 line ${i} of the handbook.`);
    const id = await uploadOk(a, token, 'handbook.txt', Buffer.from(lines.join('\n')));
    await approve(a, token, id);
    const state = async (api: ApiClient) => (await api.get(`/api/media/status/${id}`, { token })).body.data.extraction as { state: string; progress: number };
    await until(async () => (await state(a)).state === 'running', 'the extraction to start on the first node');
    await stopCli(first.child, 'SIGKILL');

    const second = await startCli(env);
    nodes.push(second);
    const b = new ApiClient(second.url);
    for (let poll = 0; poll < 600 && ['queued', 'running'].includes((await state(b)).state); poll++) await new Promise((resolve) => setTimeout(resolve, 200));
    const settled = await state(b);
    assert.equal(settled.state, 'done', JSON.stringify(settled));
    assert.equal(settled.progress, 100);
    const hits = await b.get(`/api/knowledge/search?q=${encodeURIComponent('handbook')}`, { token });
    assert.equal(hits.status, 200);
  });
});
