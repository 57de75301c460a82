// Sync between a central server (PostgreSQL, its own schema) and branch laptops (SQLite), each a real server
// process on loopback; the branch reaches the central server through a TCP proxy that can cut the link.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startNode, type Node } from '../support/sync-nodes.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { usingPostgres } from '../support/server.js';
import type { Question } from '../../contract/exams.js';
import { allRight, answerSheet, questionBody, uniqueDomain } from './exams-fixtures.js';
import { approve, sha256, uploadOk } from './media-fixtures.js';


let central: Node;
let branch: Node;
let proxy: TcpProxy;
let bank: Question[];
let paperId: number;
let alice: { id: number; username: string };
const PASSWORD = 'branch-pass-1';

async function ok(res: { status: number; text: string; body: { data: unknown } }, status = 200) {
  assert.equal(res.status, status, res.text);
  return res.body.data as never;
}

const device = (name: string) => central.api.post('/api/sync/devices', { token: central.adminToken, body: { name } });
const run = (node: Node) => node.api.post('/api/sync/run', { token: node.adminToken });
const status = async (node: Node) => ok(await node.api.get('/api/sync/status', { token: node.adminToken }));

/** Takes the central paper on a node as the user: all right, or all wrong. */
async function takeExam(node: Node, username: string, right: boolean) {
  const token = await node.api.login(username, PASSWORD);
  const localBank = (await ok(await node.api.get('/api/exam/questions', { token: node.adminToken }))) as Question[];
  const papers = (await ok(await node.api.get('/api/exam/papers', { token: node.adminToken }))) as { id: number; name: string }[];
  const paper = papers.find((p) => p.name === 'Branch exam')!;
  const started = await ok(await node.api.post('/api/exam/start', { token, body: { paper_id: paper.id } }));
  const { session_id, questions } = started as { session_id: string; questions: { id: number }[] };
  const answers = right ? allRight(questions as never, localBank) : answerSheet(questions as never, localBank, () => false);
  return ok(await node.api.post('/api/exam/submit', { token, body: { session_id, answers, time_spent_sec: 30 } })) as Promise<{ record_id: number; passed: boolean; score: number }>;
}

async function centralRecords(username: string) {
  const page = await ok(await central.api.get(`/api/system/exam-records?username=${username}&size=100`, { token: central.adminToken }));
  return (page as { items: { id: number; score: number; passed: boolean; certificate_id: number | null }[] }).items;
}

// The central server runs on PostgreSQL (a schema of its own) in the suite's PostgreSQL pass, which tests/run.mjs
// skips with its reason when PostgreSQL is down, and on SQLite in the first pass; branches always run on SQLite.
describe(`sync (central on ${usingPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  before(async () => {
    central = await startNode({ postgres: usingPostgres });
    branch = await startNode({ postgres: false });
    proxy = await startTcpProxy(central.port);
    const domain = uniqueDomain('sync');
    bank = [];
    for (const type of ['single', 'multiple', 'true_false'] as const) bank.push(await ok(await central.api.post('/api/exam/questions', { token: central.adminToken, body: questionBody(domain, type) }), 201));
    paperId = ((await ok(await central.api.post('/api/exam/papers', { token: central.adminToken, body: { name: 'Branch exam', type: 'formal', domain, question_count: 3, total_score: 100, pass_score: 60, duration_minutes: 30, randomize: false } }), 201)) as { id: number }).id;
    for (const username of ['alice', 'bob', 'carol']) {
      const user = await ok(await central.api.post('/api/system/users', { token: central.adminToken, body: { username, password: PASSWORD, full_name: `${username} Branch`, role: 'employee' } }), 201);
      if (username === 'alice') alice = user;
    }
  });
  after(async () => {
    await proxy?.close();
    await branch?.close();
    await central?.close();
  });

  test('devices are created by central admins only, with a one-time enrolment token', async () => {
    assert.equal((await central.api.post('/api/sync/devices', { body: { name: 'x' } })).status, 401);
    assert.equal((await device('')).status, 400);
    const res = await device('Branch A');
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.data.enrolment_token, /^tbe_/);
    const list = (await ok(await central.api.get('/api/sync/devices', { token: central.adminToken }))) as { id: number; state: string }[];
    assert.equal(list.find((d) => d.id === res.body.data.device_id)?.state, 'waiting');
  });

  test('a branch enrols over http only on loopback, once per token, and pulls the central content', async () => {
    const { enrolment_token } = await ok(await device('Branch laptop'), 201);
    const config = (body: object) => branch.api.put('/api/sync/config', { token: branch.adminToken, body });
    const insecure = await config({ central_url: 'http://example.com', enrolment_token });
    assert.equal(insecure.status, 400);
    assert.equal(insecure.body.error, 'sync.insecure_url');
    assert.equal((await config({ central_url: proxy.url })).status, 400);
    const enrolled = await ok(await config({ central_url: proxy.url, enrolment_token }));
    assert.equal((enrolled as { central_url: string }).central_url, proxy.url);
    // Single use.
    const again = await config({ central_url: proxy.url, enrolment_token });
    assert.equal(again.status, 400, again.text);
    assert.equal(again.body.error, 'sync.enrolment_refused');

    const summary = (await ok(await run(branch))) as { pulled: number; pushed: number };
    assert.ok(summary.pulled > 0);
    // The central user signs in on the branch with the central password; the central admin's password replaced the branch's.
    await branch.api.login('alice', PASSWORD);
    const questions = (await ok(await branch.api.get('/api/exam/questions', { token: branch.adminToken }))) as Question[];
    assert.deepEqual(new Set(bank.map((q) => q.stem)), new Set(questions.filter((q) => bank.some((b) => b.stem === q.stem)).map((q) => q.stem)));
  });

  test('a formal exam taken while the central server is down goes up once: record, certificate and points', async () => {
    await central.stop();
    const result = await takeExam(branch, 'alice', true);
    assert.equal(result.passed, true);
    const offline = await run(branch);
    assert.equal(offline.status, 502, offline.text);
    assert.equal(offline.body.error, 'sync.central_unreachable');
    const waiting = (await status(branch)) as { state: string; pending_up: number; last_error: string };
    assert.equal(waiting.state, 'offline');
    assert.equal(waiting.pending_up, 1);
    assert.ok(waiting.last_error);

    await central.start();
    proxy.target = central.port;
    const summary = (await ok(await run(branch))) as { pushed: number; conflicts: number };
    assert.equal(summary.pushed, 1);
    assert.equal(summary.conflicts, 0);
    assert.equal(((await ok(await run(branch))) as { pushed: number }).pushed, 0);
    const records = await centralRecords('alice');
    assert.equal(records.length, 1);
    assert.equal(records[0]!.score, 100);
    assert.ok(records[0]!.certificate_id);
    // The record and its certificate keep the branch's global ids.
    const local = (await branch.database()('exam_records as r').join('certificates as c', 'c.record_id', 'r.id').where('r.id', result.record_id).first('r.gid', 'c.gid as certificate_gid')) as { gid: string; certificate_gid: string };
    const stored = (await central.database()('exam_records as r').join('certificates as c', 'c.record_id', 'r.id').where('r.id', records[0]!.id).first('r.gid', 'c.gid as certificate_gid')) as { gid: string; certificate_gid: string };
    assert.deepEqual(stored, local);
    const aliceToken = await central.api.login('alice', PASSWORD);
    assert.equal(((await ok(await central.api.get('/api/exam/certificates', { token: aliceToken }))) as unknown[]).length, 1);
    const points = (await ok(await central.api.get('/api/learning/points', { token: aliceToken }))) as { total: number };
    assert.ok(points.total > 0);
    const after = (await status(branch)) as { state: string; pending_up: number; last_success_at: string };
    assert.equal(after.state, 'idle');
    assert.equal(after.pending_up, 0);
    assert.ok(after.last_success_at);
  });

  test('a record keeps the question version it was drawn from; the edited question reaches the branch', async () => {
    await takeExam(branch, 'bob', true);
    const edited = { ...questionBody('x', 'single'), domain: bank[0]!.domain, stem: 'Edited at headquarters?', answer: ['C'] };
    const updated = (await ok(await central.api.put(`/api/exam/questions/${bank[0]!.id}`, { token: central.adminToken, body: edited }))) as Question;
    assert.equal(updated.version, 2);
    const summary = (await ok(await run(branch))) as { pushed: number; conflicts: number };
    assert.deepEqual([summary.pushed, summary.conflicts], [1, 0]);
    assert.equal((await centralRecords('bob'))[0]!.score, 100);
    const local = ((await ok(await branch.api.get('/api/exam/questions', { token: branch.adminToken }))) as Question[]).find((q) => q.stem === 'Edited at headquarters?');
    assert.equal(local?.version, 2);
    assert.deepEqual(local?.answer, ['C']);
  });

  test('a tampered record is refused and the device flagged', async () => {
    const result = await takeExam(branch, 'bob', false);
    assert.equal(result.passed, false);
    await branch.database()('exam_records').where({ id: result.record_id }).update({ score: 100, passed: true, correct_count: 3, wrong_count: 0 });
    const summary = (await ok(await run(branch))) as { pushed: number; conflicts: number };
    // The record is refused; the three mistake-book entries and the three review events (spaced review) its wrong
    // answers made on the branch go up.
    assert.deepEqual([summary.pushed, summary.conflicts], [6, 1]);
    assert.equal((await centralRecords('bob')).length, 1);
    const devices = (await ok(await central.api.get('/api/sync/devices', { token: central.adminToken }))) as { name: string; flagged: boolean; flag_reason: string }[];
    const laptop = devices.find((d) => d.name === 'Branch laptop')!;
    assert.equal(laptop.flagged, true);
    assert.match(laptop.flag_reason, /re-grade/);
    const audit = await ok(await central.api.get('/api/security/audit?action=sync.record_refused', { token: central.adminToken }));
    assert.equal((audit as { total: number }).total, 1);
  });

  test('a push cut off after the central server stored it, then resumed, stores each record once', async () => {
    for (let i = 0; i < 3; i++) await takeExam(branch, 'carol', true);
    const cut = proxy.cutNext({ request: 'POST /api/sync/push', afterBytes: 0 });
    const failed = await run(branch);
    await cut;
    assert.equal(failed.status, 502, failed.text);
    // The central server had committed the batch before the answer was lost.
    assert.equal((await centralRecords('carol')).length, 3);
    await ok(await run(branch));
    const records = await centralRecords('carol');
    assert.equal(records.length, 3);
    assert.equal(records.filter((r) => r.certificate_id).length, 3);
    assert.equal(((await status(branch)) as { pending_up: number }).pending_up, 0);
  });

  test('a file download cut off mid-way resumes at the bytes received and is verified', async () => {
    const data = new Uint8Array(crypto.randomBytes(3_000_000).toString('base64').slice(0, 3_000_000).split('').map((c) => c.charCodeAt(0)));
    const mediaId = await uploadOk(central.api, central.adminToken, 'handbook.txt', data);
    await approve(central.api, central.adminToken, mediaId);
    const cut = proxy.cutNext({ request: 'GET /api/sync/files/', afterBytes: 1_000_000 });
    const failed = await run(branch);
    await cut;
    assert.equal(failed.status, 502, failed.text);
    const waiting = (await status(branch)) as { pending_down: number; state: string };
    assert.equal(waiting.state, 'offline');
    assert.ok(waiting.pending_down >= 1);
    const summary = (await ok(await run(branch))) as { files: number };
    assert.equal(summary.files, 1);
    const resumed = proxy.requests.filter((r) => r.startsWith('GET /api/sync/files/')).at(-1)!;
    const from = Number(/range: bytes=(\d+)-/i.exec(resumed)?.[1]);
    assert.ok(from > 0 && from <= 1_000_000, resumed);
    const row = (await branch.database()('media_files').where({ filename: 'handbook.txt' }).first()) as { storage_key: string; status: string };
    assert.equal(row.status, 'approved');
    assert.equal(sha256(await fs.readFile(path.join(branch.dataDir, 'media', 'files', row.storage_key))), sha256(data));
  });

  test("a second branch's records never collide with the first one's", async () => {
    const second = await startNode({ postgres: false });
    try {
      const { enrolment_token } = await ok(await device('Second laptop'), 201);
      await ok(await second.api.put('/api/sync/config', { token: second.adminToken, body: { central_url: proxy.url, enrolment_token } }));
      await ok(await run(second));
      const result = await takeExam(second, 'alice', true);
      await ok(await run(second));
      const firstGid = ((await branch.database()('exam_records').where({ id: result.record_id }).first('gid')) as { gid: string } | undefined)?.gid;
      const secondGid = ((await second.database()('exam_records').where({ id: result.record_id }).first('gid')) as { gid: string }).gid;
      assert.notEqual(firstGid, secondGid);
      const gids = ((await central.database()('exam_records').select('gid')) as { gid: string }[]).map((r) => r.gid);
      assert.ok(gids.includes(secondGid));
      if (firstGid) assert.ok(gids.includes(firstGid));
      assert.equal((await centralRecords('alice')).length, 2);
    } finally {
      await second.close();
    }
  });

  test('a user disabled centrally cannot sign in on the branch after the next sync', async () => {
    await ok(await central.api.put(`/api/system/users/${alice.id}`, { token: central.adminToken, body: { status: 'disabled' } }));
    await branch.api.login('alice', PASSWORD);
    await ok(await run(branch));
    const res = await branch.api.post('/api/auth/login', { body: { username: 'alice', password: PASSWORD } });
    assert.equal(res.status, 403, res.text);
  });

  test('a device credential works on the device routes only, and a revoked device is refused', async () => {
    const created = (await ok(await device('Probe'), 201)) as { device_id: number; enrolment_token: string };
    const { credential } = (await ok(await central.api.post('/api/sync/enrol', { body: { enrolment_token: created.enrolment_token } }))) as { credential: string };
    assert.equal((await central.api.get('/api/auth/me', { headers: { authorization: `Bearer ${credential}` } })).status, 401);
    assert.equal((await central.api.get('/api/sync/pull', { token: central.adminToken })).status, 401);
    assert.equal((await central.api.get('/api/sync/pull?limit=0', { headers: { authorization: `Device ${credential}` } })).status, 400);
    assert.equal((await central.api.get('/api/sync/pull?cursor=nope', { headers: { authorization: `Device ${credential}` } })).status, 400);
    assert.equal((await central.api.post('/api/sync/push', { headers: { authorization: `Device ${credential}` }, body: { changes: [{ change_id: 'x' }] } })).status, 400);
    assert.equal((await central.api.get('/api/sync/pull', { headers: { authorization: `Device ${credential}` } })).status, 200);
    assert.equal((await central.api.delete(`/api/sync/devices/${created.device_id}`, { token: central.adminToken })).status, 200);
    assert.equal((await central.api.get('/api/sync/pull', { headers: { authorization: `Device ${credential}` } })).status, 401);
    assert.equal((await central.api.delete('/api/sync/devices/999999', { token: central.adminToken })).status, 404);

    const laptop = ((await ok(await central.api.get('/api/sync/devices', { token: central.adminToken }))) as { id: number; name: string }[]).find((d) => d.name === 'Branch laptop')!;
    await ok(await central.api.delete(`/api/sync/devices/${laptop.id}`, { token: central.adminToken }));
    const refused = await run(branch);
    assert.equal(refused.status, 502, refused.text);
    assert.equal(refused.body.error, 'sync.central_refused');
    assert.equal(((await status(branch)) as { state: string }).state, 'error');
  });

  test('enrolling again with the same central server sends what waited, a record taken while revoked included', async () => {
    const before = (await centralRecords('bob')).length;
    await takeExam(branch, 'bob', true);
    assert.ok(((await status(branch)) as { pending_up: number }).pending_up >= 1);
    const { enrolment_token } = await ok(await device('Branch laptop, again'), 201);
    await ok(await branch.api.put('/api/sync/config', { token: branch.adminToken, body: { central_url: proxy.url, enrolment_token } }));
    const summary = (await ok(await run(branch))) as { pushed: number };
    assert.ok(summary.pushed >= 1, JSON.stringify(summary));
    assert.equal((await centralRecords('bob')).length, before + 1, 'the record reached the central server');
    assert.equal(((await status(branch)) as { pending_up: number }).pending_up, 0);
  });
});
