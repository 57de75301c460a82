// Two real nodes started at the same moment on one empty PostgreSQL schema and one s3rver bucket, each with its own
// DATA_DIR, behind a round-robin proxy (tests/support/cluster.ts): every request goes to the other node than the last.
// Chunked uploads alternate nodes, exams run across both, a token from one works on the other, a user disabled on one
// is refused on the other within a second, a branch laptop (SQLite) syncs up and down through the load balancer, no
// user file is left on either node's disk, and the node running an extraction, killed with SIGKILL, is replaced by
// the other (last: it leaves one node). Models on a cluster: cluster-models.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import knexFactory from 'knex';
import { usingPostgres, type TestServer } from '../support/server.js';
import { startNode, type Node } from '../support/sync-nodes.js';
import { stopCli } from '../support/cli.js';
import { until } from '../support/until.js';
import { ApiClient } from '../support/client.js';
import { startCluster, userFilesIn, type Cluster } from '../support/cluster.js';
import { CHUNK, approve, downloadSha256, form, sendChunk, settledExtraction, sha256, uploadOk } from './media-fixtures.js';
import { addPaper, addQuestions, allRight, start, submit, uniqueDomain } from './exams-fixtures.js';

describe('two nodes behind a load balancer', { skip: !usingPostgres && 'a cluster runs on PostgreSQL and a bucket; checked in the PostgreSQL pass' }, () => {
  let cluster: Cluster;
  let api: ApiClient;
  let adminToken: string;
  let employee: { id: number; token: string };
  /** The exam fixtures' view of the cluster: its proxy and admin. */
  let asServer: TestServer;
  let branch: Node | undefined;

  before(async () => {
    // Short leases, so that a killed node's job is taken over within seconds.
    cluster = await startCluster(2, { JOB_LEASE_SECONDS: '5', JOB_MAINTENANCE_SECONDS: '1' });
    api = new ApiClient(cluster.url);
    adminToken = await api.login('admin', 'admin-pass-123');
    const created = await api.post('/api/system/users', { token: adminToken, body: { username: 'clerk', password: 'clerk-pass-1', full_name: 'Clerk', role: 'employee' } });
    assert.equal(created.status, 201, created.text);
    employee = { id: created.body.data.id, token: await api.login('clerk', 'clerk-pass-1') };
    asServer = { api, adminToken, url: cluster.url } as unknown as TestServer;
  });
  after(async () => {
    await branch?.close();
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

  test('a branch laptop syncs through the load balancer: its media goes up, media approved on one node comes down via the other and stays', async () => {
    branch = await startNode({ postgres: false });
    const [a] = cluster.nodes.map((node) => new ApiClient(node.url));
    const enrolled = await a!.post('/api/sync/devices', { token: adminToken, body: { name: 'Branch behind the balancer' } });
    assert.equal(enrolled.status, 201, enrolled.text);
    const configured = await branch.api.put('/api/sync/config', { token: branch.adminToken, body: { central_url: cluster.url, enrolment_token: enrolled.body.data.enrolment_token } });
    assert.equal(configured.status, 200, configured.text);
    const run = async () => {
      const res = await branch!.api.post('/api/sync/run', { token: branch!.adminToken });
      assert.equal(res.status, 200, res.text);
      return res.body.data as { files: number };
    };
    await run();

    // Push: a media suggested on the branch goes up in pieces that land on both nodes, and is stored once.
    const suggested = crypto.randomBytes(1_500_000);
    assert.equal((await branch.api.post('/api/company-train/suggest-material', { token: branch.adminToken, form: form({ remark: 'from the branch' }, { name: 'flyer.pdf', data: suggested }) })).status, 201);
    await run();
    const central = knexFactory({ client: 'pg', connection: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', searchPath: [cluster.schema], pool: { min: 0, max: 1 } });
    try {
      const rows = (await central('media_files').where({ filename: 'flyer.pdf' })) as { id: number; status: string }[];
      assert.deepEqual(rows.map((r) => r.status), ['pending']);
      await approve(api, adminToken, rows[0]!.id);
      const preview = await new ApiClient(cluster.nodes[1]!.url).get(`/api/media/preview/${rows[0]!.id}`, { token: adminToken });
      assert.deepEqual(await downloadSha256(cluster.nodes[1]!.url, preview.body.data.preview_url), { status: 200, sha256: sha256(suggested), bytes: suggested.length });
    } finally {
      await central.destroy();
    }

    // Pull: approved on node A; the branch's requests alternate nodes, so node B answers part of every run.
    const data = crypto.randomBytes(2_500_000);
    const mediaId = await uploadOk(a!, adminToken, '产品手册.pdf', data);
    await approve(a!, adminToken, mediaId);
    await run();
    const local = () => branch!.database()('media_files').where({ filename: '产品手册.pdf' }).first() as Promise<{ storage_key: string; status: string } | undefined>;
    const row = await local();
    assert.equal(row?.status, 'approved');
    assert.equal(sha256(await fs.readFile(path.join(branch.dataDir, 'media', 'files', row!.storage_key))), sha256(data));
    // Later runs, answered by either node, never tell the branch to delete it.
    for (let i = 0; i < 3; i++) await run();
    assert.equal((await local())?.status, 'approved');
    assert.ok((await fs.stat(path.join(branch.dataDir, 'media', 'files', row!.storage_key))).isFile());
  });

  test('no user file is left on either node’s disk', async () => {
    for (const dir of cluster.dataDirs) assert.deepEqual(await userFilesIn(dir), [], `left in ${dir}`);
  });

  test('the node running an extraction, killed with SIGKILL behind the balancer, is replaced by the other, which finishes it', async () => {
    const lines = Array.from({ length: 120_000 }, (_, i) => `第${i}条 理财产品说明：风险等级、申购赎回规则与费率 line ${i} of the manual.`);
    const id = await uploadOk(api, adminToken, 'manual.txt', Buffer.from(lines.join('\n')));
    await approve(api, adminToken, id);
    const state = async () => (await api.get(`/api/media/status/${id}`, { token: adminToken })).body.data.extraction as { state: string; progress: number };
    await until(async () => (await state()).state === 'running', 'the extraction to start');
    // The node running it is the one busy on the CPU (the other is idle): read from /proc over half a second.
    const cpu = async (pid: number) => (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ').slice(11, 13).reduce((n, v) => n + Number(v), 0);
    const before = await Promise.all(cluster.nodes.map((n) => cpu(n.child.pid!)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const busy = (await Promise.all(cluster.nodes.map((n) => cpu(n.child.pid!)))).map((ticks, i) => ticks - before[i]!);
    const runner = busy[0]! >= busy[1]! ? 0 : 1;
    assert.equal((await state()).state, 'running', 'still running when its node is killed');
    await stopCli(cluster.nodes[runner]!.child, 'SIGKILL');

    for (let poll = 0; poll < 600 && ['queued', 'running'].includes((await state()).state); poll++) await new Promise((resolve) => setTimeout(resolve, 200));
    const settled = await state();
    assert.deepEqual([settled.state, settled.progress], ['done', 100], JSON.stringify(settled));
    const hits = await api.get(`/api/knowledge/search?q=${encodeURIComponent('manual')}`, { token: adminToken });
    assert.equal(hits.status, 200, hits.text);
  });
});
