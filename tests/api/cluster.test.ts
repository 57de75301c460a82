// Two real nodes started at the same moment on one empty PostgreSQL schema and one s3rver bucket, each with its own
// DATA_DIR, behind a round-robin proxy (tests/support/cluster.ts): every request goes to the other node than the last.
// Chunked uploads alternate nodes, exams run across both, a token from one works on the other, a user disabled on one
// is refused on the other within a second, and no user file is left on either node's disk. A node killed during an
// extraction is covered by cluster-jobs.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import { usingPostgres, type TestServer } from '../support/server.js';
import { ApiClient } from '../support/client.js';
import { startCluster, type Cluster } from '../support/cluster.js';
import { CHUNK, approve, downloadSha256, sendChunk, settledExtraction, sha256 } from './media-fixtures.js';
import { addPaper, addQuestions, allRight, start, submit, uniqueDomain } from './exams-fixtures.js';

describe('two nodes behind a load balancer', { skip: !usingPostgres && 'a cluster runs on PostgreSQL and a bucket; checked in the PostgreSQL pass' }, () => {
  let cluster: Cluster;
  let api: ApiClient;
  let adminToken: string;
  let employee: { id: number; token: string };
  /** The exam fixtures' view of the cluster: its proxy and admin. */
  let asServer: TestServer;

  before(async () => {
    cluster = await startCluster(2);
    api = new ApiClient(cluster.url);
    adminToken = await api.login('admin', 'admin-pass-123');
    const created = await api.post('/api/system/users', { token: adminToken, body: { username: 'clerk', password: 'clerk-pass-1', full_name: 'Clerk', role: 'employee' } });
    assert.equal(created.status, 201, created.text);
    employee = { id: created.body.data.id, token: await api.login('clerk', 'clerk-pass-1') };
    asServer = { api, adminToken, url: cluster.url } as unknown as TestServer;
  });
  after(async () => {
    await cluster?.close();
  });

  test('both came up on the empty schema; a token from either node works on both', async () => {
    for (const node of cluster.nodes) {
      const me = await new ApiClient(node.url).get('/api/auth/me', { token: employee.token });
      assert.equal(me.status, 200, `${node.url}: ${me.text}`);
      const ready = await fetch(`${node.url}/api/health/ready`);
      assert.deepEqual(await ready.json(), { status: 'ready', checks: { database: 'ok', storage: 'ok' } });
    }
  });

  test('a chunked upload whose chunks alternate nodes completes byte for byte, extracts, and downloads from both', async () => {
    const text = Buffer.from(Array.from({ length: 160_000 }, (_, i) => `第${i}行 基金定投说明 cluster line ${i}`).join('\n'));
    const init = await api.post('/api/media/upload/init', { token: employee.token, body: { filename: 'handbook.txt', file_size: text.length, bind_type: 'none' } });
    assert.equal(init.status, 201, init.text);
    const { upload_id, chunk_count } = init.body.data as { upload_id: string; chunk_count: number };
    assert.ok(chunk_count >= 2);
    for (const index of [...Array(chunk_count).keys()].reverse()) {
      const res = await sendChunk(api, employee.token, upload_id, index, text.subarray(index * CHUNK, (index + 1) * CHUNK));
      assert.equal(res.status, 200, res.text);
    }
    const done = await api.post('/api/media/upload/complete', { token: employee.token, body: { upload_id } });
    assert.equal(done.status, 201, done.text);
    const id = done.body.data.id as number;
    await approve(api, adminToken, id);
    const settled = await settledExtraction(api, employee.token, id);
    assert.equal(settled.extraction.state, 'done', JSON.stringify(settled));
    for (const node of cluster.nodes) {
      const preview = await new ApiClient(node.url).get(`/api/media/preview/${id}`, { token: employee.token });
      assert.equal(preview.status, 200, preview.text);
      assert.deepEqual(await downloadSha256(node.url, preview.body.data.preview_url), { status: 200, sha256: sha256(text), bytes: text.length });
    }
  });

  test('an exam started on one node is saved and submitted across both', async () => {
    const domain = uniqueDomain('cluster');
    const bank = await addQuestions(asServer, domain, 3);
    const paper = await addPaper(asServer, { domain, question_count: 3 });
    const session = await start(asServer, employee.token, paper.id);
    const result = await submit(asServer, employee.token, session.session_id, allRight(session.questions, bank));
    assert.equal(result.score, 100);
  });

  test('a user disabled on one node is refused on the other within a second', async () => {
    const [a, b] = cluster.nodes.map((node) => new ApiClient(node.url));
    const created = await a!.post('/api/system/users', { token: adminToken, body: { username: `gone_${crypto.randomBytes(3).toString('hex')}`, password: 'gone-pass-1', full_name: 'Gone', role: 'employee' } });
    const token = await a!.login(created.body.data.username, 'gone-pass-1');
    assert.equal((await b!.get('/api/auth/me', { token })).status, 200);
    assert.equal((await a!.put(`/api/system/users/${created.body.data.id}`, { token: adminToken, body: { status: 'disabled' } })).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 900));
    assert.equal((await b!.get('/api/auth/me', { token })).status, 401);
  });

  test('no user file is left on either node’s disk', async () => {
    for (const dir of cluster.dataDirs) {
      const files = (await fs.readdir(dir, { recursive: true })) as string[];
      const userFiles = [];
      for (const name of files) {
        const stat = await fs.stat(path.join(dir, name));
        if (stat.isFile() && !/^(logs\/|node-id$|server\.running$)/.test(name)) userFiles.push(name);
      }
      assert.deepEqual(userFiles, [], `left in ${dir}`);
    }
  });
});
