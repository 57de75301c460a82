// Issue 34, "imports are quick and kind": a long users import (more than USER_IMPORT_JOB_ROWS rows) answers 202
// {job_id} and is followed at GET /api/system/users/import/jobs/{id} to `done`, with the same report as a short
// import; the credentials come once, to the admin who started it; sign-ins keep working while it runs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import { startTestServer, usingPostgres, type TestServer } from '../support/server.js';
import { USER_IMPORT_JOB_ROWS, type UserImportJob, type UserImportReport } from '../../contract/imports.js';

const HEADER = ['用户名', '姓名', '部门', '岗位', '角色'];
const REPORT_KEYS = ['credentials', 'departments_created', 'dry_run', 'errors', 'imported', 'positions_created', 'total', 'valid'];

async function workbook(rows: unknown[][]): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sheet1');
  sheet.addRow(HEADER);
  for (const row of rows) sheet.addRow(row);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

const people = (prefix: string, count: number): unknown[][] =>
  Array.from({ length: count }, (_, i) => [`${prefix}_${i}`, `作业用户${i}`, `作业部门${prefix}_${i % 3}`, '理财经理', '员工']);

describe('users import as a job', () => {
  let ts: TestServer;
  const tag = crypto.randomBytes(3).toString('hex');
  const post = (book: Uint8Array, { dryRun = false, token = ts.adminToken } = {}) => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(book)]), 'users.xlsx');
    return ts.api.post(`/api/system/users/import${dryRun ? '?dry_run=true' : ''}`, { token, form });
  };
  const getJob = (id: number | string, token = ts.adminToken) => ts.api.get(`/api/system/users/import/jobs/${id}`, { token });

  /** Polls the job until it ends (generously: a loaded machine), keeping every answer seen on the way. */
  async function follow(id: number, token = ts.adminToken): Promise<{ last: UserImportJob; seen: UserImportJob[] }> {
    const seen: UserImportJob[] = [];
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      const res = await getJob(id, token);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const job = res.body.data as UserImportJob;
      seen.push(job);
      if (job.status !== 'running') return { last: job, seen };
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`import job ${id} still running after 3 minutes`);
  }

  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.close());

  test(`${USER_IMPORT_JOB_ROWS + 100} rows answer 202 {job_id}; the job ends done with the short import's report, credentials once; sign-ins keep working`, async () => {
    const employee = await ts.user();
    const count = USER_IMPORT_JOB_ROWS + 100;
    const started = await post(await workbook(people(`job${tag}`, count)));
    assert.equal(started.status, 202, started.text);
    assert.equal(started.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(started.body.data), ['job_id']);
    const jobId = started.body.data.job_id as number;
    assert.ok(Number.isInteger(jobId) && jobId > 0);

    // While it runs, people sign in (the admin and an employee) and are answered.
    const logins = await Promise.all([
      ts.api.post('/api/auth/login', { body: { username: 'admin', password: 'admin-pass-123' } }),
      ts.api.post('/api/auth/login', { body: { username: employee.username, password: 'secret-pass' } }),
    ]);
    for (const login of logins) assert.equal(login.status, 200, login.text);

    const { last, seen } = await follow(jobId);
    assert.equal(last.status, 'done', JSON.stringify({ ...last, report: null }));
    assert.equal(last.id, jobId);
    assert.equal(last.total, count);
    assert.equal(last.processed, count);
    assert.equal(last.error, null);
    for (const job of seen) {
      assert.equal(job.total, count);
      assert.ok(job.processed >= 0 && job.processed <= count, `processed ${job.processed}`);
      if (job.status === 'running') assert.equal(job.report, null);
    }
    const processed = seen.map((job) => job.processed);
    assert.deepEqual(processed, [...processed].sort((a, b) => a - b), 'progress never goes back');

    const report = last.report as UserImportReport;
    assert.deepEqual(Object.keys(report).sort(), REPORT_KEYS);
    assert.equal(report.dry_run, false);
    assert.equal(report.total, count);
    assert.equal(report.valid, count);
    assert.equal(report.imported, count);
    assert.deepEqual(report.errors, []);
    assert.deepEqual(report.departments_created.sort(), [0, 1, 2].map((i) => `作业部门job${tag}_${i}`));
    assert.equal(report.credentials.length, count);
    assert.deepEqual(report.credentials[0] && Object.keys(report.credentials[0]).sort(), ['full_name', 'password', 'row', 'username']);
    assert.equal(report.credentials[0]!.row, 2);

    // Once: asked again, the job is the same but carries no password.
    const again = await getJob(jobId);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.data.status, 'done');
    assert.deepEqual(again.body.data.report.credentials, []);
    assert.equal(again.body.data.report.imported, count);

    // The passwords sign in, and the user must change theirs, as after a short import.
    for (const credential of [report.credentials[0]!, report.credentials.at(-1)!]) {
      const login = await ts.api.post('/api/auth/login', { body: { username: credential.username, password: credential.password } });
      assert.equal(login.status, 200, login.text);
      assert.equal(login.body.data.must_change_password, true);
    }
  });

  test('on PostgreSQL another node answers the job: status, progress and the report from the database', { skip: !usingPostgres && 'one node per SQLite file' }, async () => {
    // A second server on the same schema and keys, as a node of the cluster.
    const other = await startTestServer({ databaseSchema: ts.config.databaseSchema, jwtSecret: ts.config.jwtSecret });
    try {
      const count = USER_IMPORT_JOB_ROWS + 50;
      const started = await post(await workbook(people(`node${tag}`, count)));
      assert.equal(started.status, 202, started.text);
      const deadline = Date.now() + 180_000;
      let job: UserImportJob;
      do {
        await new Promise((r) => setTimeout(r, 100));
        const res = await other.api.get(`/api/system/users/import/jobs/${started.body.data.job_id}`, { token: ts.adminToken });
        assert.equal(res.status, 200, res.text);
        job = res.body.data;
      } while (job.status === 'running' && Date.now() < deadline);
      assert.equal(job.status, 'done');
      assert.equal(job.processed, count);
      assert.equal(job.report?.imported, count);
      assert.equal(job.report?.credentials.length, count, 'the admin who started it gets the passwords on any node');
    } finally {
      await other.close();
    }
  });

  test('another admin follows the job but never gets its passwords', async () => {
    const other = await ts.user('admin');
    const started = await post(await workbook(people(`other${tag}`, USER_IMPORT_JOB_ROWS + 1)));
    assert.equal(started.status, 202, started.text);
    const { last } = await follow(started.body.data.job_id, other.token);
    assert.equal(last.status, 'done');
    assert.deepEqual(last.report?.credentials, []);
    // The admin who started it still gets them, once.
    const mine = await getJob(started.body.data.job_id);
    assert.equal(mine.body.data.report.credentials.length, USER_IMPORT_JOB_ROWS + 1);
  });

  test('a long file with a bad row: the job fails with the report of its rows, and nothing is written', async () => {
    const rows = people(`bad${tag}`, USER_IMPORT_JOB_ROWS + 20);
    rows[7] = [`bad${tag}_7`, '', '培训部', '理财经理', '员工'];
    rows[9] = [`bad${tag}_9`, '王九', '培训部', '理财经理', '老板'];
    const started = await post(await workbook(rows));
    assert.equal(started.status, 202, started.text);
    const { last } = await follow(started.body.data.job_id);
    assert.equal(last.status, 'failed');
    assert.match(last.error ?? '', /2 invalid row/);
    const report = last.report as UserImportReport;
    assert.deepEqual(Object.keys(report).sort(), REPORT_KEYS);
    assert.equal(report.imported, 0);
    assert.deepEqual(report.credentials, []);
    assert.deepEqual(report.errors.map((e) => [e.row, e.field, e.code]), [
      [9, 'full_name', 'required'],
      [11, 'role', 'invalid_role'],
    ]);
    const found = (await ts.api.get(`/api/system/users?q=bad${tag}`, { token: ts.adminToken })).body.data as unknown[];
    assert.equal(found.length, 0);
  });

  test('a dry run of a long file stays synchronous, as does a short import', async () => {
    const dry = await post(await workbook(people(`dry${tag}`, USER_IMPORT_JOB_ROWS + 10)), { dryRun: true });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.data.dry_run, true);
    assert.equal(dry.body.data.valid, USER_IMPORT_JOB_ROWS + 10);
    const short = await post(await workbook(people(`short${tag}`, USER_IMPORT_JOB_ROWS)));
    assert.equal(short.status, 200, short.text);
    assert.equal(short.body.data.imported, USER_IMPORT_JOB_ROWS);
  });

  test('the job endpoint: 401 without a token, 403 for an employee, 404 for an unknown job, 400 for a bad id', async () => {
    const employee = await ts.user();
    assert.equal((await ts.api.get('/api/system/users/import/jobs/1')).status, 401);
    const forbidden = await getJob(1, employee.token);
    assert.equal(forbidden.status, 403, forbidden.text);
    assert.equal((await post(await workbook(people(`emp${tag}`, USER_IMPORT_JOB_ROWS + 1)), { token: employee.token })).status, 403);
    const missing = await getJob(987654);
    assert.equal(missing.status, 404, missing.text);
    assert.equal(missing.body.error, 'not_found');
    assert.equal((await getJob('abc')).status, 400);
  });
});
