// Issue 34, "imports are quick and kind", over real HTTP: 1,000 users import well within a minute (random initial
// passwords stored with a salted SHA-256, not argon2) and sign in with either kind of hash; formula, error and date
// cells are read as what a person sees or reported as bad rows, never stored as formulas or Date strings.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import knexFactory from 'knex';
import { startTestServer, usingPostgres, type TestServer } from '../support/server.js';
import type { UserImportReport } from '../../contract/imports.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const HEADER = ['用户名', '姓名', '部门', '岗位', '角色'];

async function workbook(fill: (sheet: ExcelJS.Worksheet) => void): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sheet1');
  sheet.addRow(HEADER);
  fill(sheet);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

describe('users import: quick and kind', () => {
  let ts: TestServer;
  const tag = crypto.randomBytes(3).toString('hex');
  const importUsers = (book: Uint8Array, dryRun = false) => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(book)]), 'users.xlsx');
    return ts.api.post(`/api/system/users/import${dryRun ? '?dry_run=true' : ''}`, { token: ts.adminToken, form });
  };

  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.close());

  test('1,000 users import in under a minute; each signs in with the generated password and must change it', async () => {
    const book = await workbook((sheet) => {
      for (let i = 0; i < 1000; i++) sheet.addRow([`bulk${tag}_${i}`, `批量用户${i}`, `部门${i % 7}`, '理财经理', '员工']);
    });
    const started = performance.now();
    // More than USER_IMPORT_JOB_ROWS rows: a job, followed to its end (imports-job.test.ts tests the job itself).
    const res = await importUsers(book);
    assert.equal(res.status, 202, res.text);
    let job: Json;
    do {
      await new Promise((r) => setTimeout(r, 100));
      job = (await ts.api.get(`/api/system/users/import/jobs/${res.body.data.job_id}`, { token: ts.adminToken })).body.data;
    } while (job.status === 'running' && performance.now() - started < 120_000);
    const seconds = (performance.now() - started) / 1000;
    assert.equal(job.status, 'done', JSON.stringify(job.error));
    const report = job.report as UserImportReport;
    assert.equal(report.imported, 1000);
    assert.equal(report.credentials.length, 1000);
    // A capability bound (argon2 one after another took 265 ms a user: 4.4 minutes), generous for a loaded machine.
    assert.ok(seconds < 60, `1,000 users took ${seconds.toFixed(1)} s`);
    console.log(`# 1,000-user import: ${seconds.toFixed(1)} s`);

    // The fast hash is the initial password's alone: a wrong one is refused, the right one signs in (and must change).
    const first = report.credentials[0]!;
    assert.equal((await ts.api.post('/api/auth/login', { body: { username: first.username, password: `${first.password}x` } })).status, 401);
    const login = await ts.api.post('/api/auth/login', { body: { username: first.username, password: first.password } });
    assert.equal(login.status, 200, login.text);
    assert.equal(login.body.data.must_change_password, true);
    const token = login.body.data.token as string;
    const changed = await ts.api.put('/api/auth/password', { token, body: { current_password: first.password, new_password: 'my-own-pass-123' } });
    assert.equal(changed.status, 200, changed.text);
    // The password the person chose signs in (the normal argon2 hash); the initial one no longer does.
    assert.equal((await ts.api.post('/api/auth/login', { body: { username: first.username, password: 'my-own-pass-123' } })).status, 200);
    assert.equal((await ts.api.post('/api/auth/login', { body: { username: first.username, password: first.password } })).status, 401);

    const last = report.credentials.at(-1)!;
    assert.equal((await ts.api.post('/api/auth/login', { body: { username: last.username, password: last.password } })).status, 200);
  });

  test('formula, error and date cells: a result or a date as shown, else a bad row; a formula is never stored', async () => {
    const book = await workbook((sheet) => {
      // A formula with its cached result reads as the result; a date cell as the date a person sees.
      sheet.addRow([`calc${tag}`, { formula: 'CONCAT("王","五")', result: '王五' }, new Date(Date.UTC(2026, 0, 1)), '理财经理', '员工']);
      // Typed as text, a leading = is no department name.
      sheet.addRow([`eq${tag}`, '赵六', '=cmd|"/c calc"!A1', '理财经理', '员工']);
      // An error cell and a formula without a result are bad rows.
      sheet.addRow([`err${tag}`, '钱七', { error: '#DIV/0!' }, '理财经理', '员工']);
      sheet.addRow([`nores${tag}`, { formula: 'A1&B1' }, '培训部', '理财经理', '员工']);
    });
    const dry = await importUsers(book, true);
    assert.equal(dry.status, 200, dry.text);
    const errors = (dry.body.data as UserImportReport).errors.map((e) => [e.row, e.field, e.code]);
    assert.deepEqual(errors, [
      [3, 'department', 'formula'],
      [4, 'department', 'cell_error'],
      [5, 'full_name', 'formula'],
    ]);
    assert.deepEqual((dry.body.data as UserImportReport).departments_created, ['2026-01-01']);

    // The good row alone imports as it reads.
    const good = await workbook((sheet) => sheet.addRow([`calc${tag}`, { formula: 'CONCAT("王","五")', result: '王五' }, new Date(Date.UTC(2026, 0, 1)), '理财经理', '员工']));
    const res = await importUsers(good);
    assert.equal(res.status, 200, res.text);
    const users = (await ts.api.get(`/api/system/users?q=calc${tag}`, { token: ts.adminToken })).body.data as Json[];
    const user = users.find((u) => u.username === `calc${tag}`);
    assert.equal(user.full_name, '王五');
    assert.equal(user.department, '2026-01-01');
    const departments = ((await ts.api.get('/api/system/departments', { token: ts.adminToken })).body.data as Json[]).map((d) => d.name);
    assert.ok(!departments.some((n: string) => n.startsWith('=') || n.startsWith('#') || n.includes('GMT')), departments.join(', '));
  });

  test('initial passwords are stored with the fast salted hash, a chosen one with argon2', async () => {
    if (usingPostgres) return; // the file read below is SQLite's; the hashes are the same code on PostgreSQL
    const db = knexFactory({ client: 'sqlite3', connection: { filename: `${ts.dataDir}/trainbench.sqlite` }, useNullAsDefault: true });
    try {
      const rows = (await db('users').where('username', 'like', `bulk${tag}_%`).select('username', 'password_hash')) as { username: string; password_hash: string }[];
      assert.equal(rows.length, 1000);
      // The first changed it; the last signed in once, when the initial hash was replaced with argon2's.
      assert.equal(rows.filter((r) => r.password_hash.startsWith('$argon2id$')).length, 2);
      assert.equal(rows.filter((r) => r.password_hash.startsWith('$initial-sha256$')).length, 998);
    } finally {
      await db.destroy();
    }
  });
});
