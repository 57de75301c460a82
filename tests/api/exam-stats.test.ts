// The admin's exam figures (GET /api/system/exam-stats), the Excel export of the records, the new record filters
// (department, from, to) and the paged question bank / paper lists the admin screens use.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import type { ExamPaperAdmin, ExamRecord, Question } from '../../contract/exams.js';
import type { ExamStats } from '../../contract/exam-stats.js';
import { addPaper, addQuestions, answerSheet, start, submit, uniqueDomain } from './exams-fixtures.js';

let ts: TestServer;
let bank: Question[];
let paperA: ExamPaperAdmin;
let paperB: ExamPaperAdmin;
let shanghai: { id: number; username: string; token: string };
let beijing: { id: number; username: string; token: string };
let domain: string;

/** Takes the paper answering `right` of its three questions correctly. */
async function take(user: { token: string }, paper: ExamPaperAdmin, right: number) {
  const session = await start(ts, user.token, paper.id);
  const rightIds = new Set(session.questions.slice(0, right).map((q) => q.id));
  return submit(ts, user.token, session.session_id, answerSheet(session.questions, bank, (id) => rightIds.has(id)));
}

const stats = async (query = '') => {
  const res = await ts.api.get(`/api/system/exam-stats${query}`, { token: ts.adminToken });
  assert.equal(res.status, 200, res.text);
  return res.body.data as ExamStats;
};

before(async () => {
  ts = await startTestServer();
  domain = uniqueDomain('stats');
  bank = await addQuestions(ts, domain, 3);
  paperA = await addPaper(ts, { name: 'Stats paper A', domain });
  paperB = await addPaper(ts, { name: 'Stats paper B', domain });
  shanghai = await ts.user('employee', { department: 'Shanghai' });
  beijing = await ts.user('employee', { department: 'Beijing' });
  await take(shanghai, paperA, 3); // 100, passed
  await take(shanghai, paperA, 0); // 0, failed
  await take(beijing, paperA, 2); // 66.67, passed
  await take(beijing, paperB, 1); // 33.33, failed
});
after(() => ts.close());

describe('exam stats', () => {
  test('pass rate by people as well as by attempts; who has not taken a paper yet', async () => {
    const data = await stats();
    const byPaper = Object.fromEntries(data.by_paper.map((p) => [p.paper_id, [p.records, p.pass_rate, p.people, p.people_passed, p.people_pass_rate]]));
    assert.deepEqual(byPaper[paperA.id], [3, 0.6667, 2, 2, 1]);
    assert.deepEqual(byPaper[paperB.id], [1, 0, 1, 0, 0]);
    const departments = Object.fromEntries(data.by_department.map((d) => [d.department, [d.people, d.people_passed]]));
    assert.deepEqual(departments.Shanghai, [1, 1]);

    const notTaken = async (query: string) => {
      const res = await ts.api.get(`/api/system/exam-stats/not-taken${query}`, { token: ts.adminToken });
      assert.equal(res.status, 200, res.text);
      return res.body.data as { items: { user_id: number }[]; total: number };
    };
    const fresh = await ts.user('employee', { department: 'Shanghai' });
    const b = await notTaken(`?paper_id=${paperB.id}&size=200`);
    assert.ok(b.items.some((u) => u.user_id === shanghai.id));
    assert.ok(b.items.some((u) => u.user_id === fresh.id));
    assert.ok(!b.items.some((u) => u.user_id === beijing.id));
    assert.equal(b.total, b.items.length);
    const a = await notTaken(`?paper_id=${paperA.id}&department=Shanghai`);
    assert.deepEqual(a.items.map((u) => u.user_id), [fresh.id]);
    assert.equal((await ts.api.get('/api/system/exam-stats/not-taken', { token: ts.adminToken })).status, 400);
    assert.equal((await ts.api.get(`/api/system/exam-stats/not-taken?paper_id=${paperA.id}`, { token: shanghai.token })).status, 403);
  });

  test('admins only', async () => {
    assert.equal((await ts.api.get('/api/system/exam-stats')).status, 401);
    const res = await ts.api.get('/api/system/exam-stats', { token: shanghai.token });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'forbidden');
  });

  test('overall, per paper and per department pass rates and average percent', async () => {
    const data = await stats();
    assert.deepEqual(data.overall, { records: 4, passed: 2, pass_rate: 0.5, average_percent: 50, people: 2, people_passed: 2, people_pass_rate: 1 });
    assert.deepEqual(
      data.by_paper.map((p) => [p.paper_id, p.paper_name, p.records, p.passed, p.pass_rate, p.average_percent]),
      [
        [paperA.id, 'Stats paper A', 3, 2, 0.6667, 55.56],
        [paperB.id, 'Stats paper B', 1, 0, 0, 33.33],
      ],
    );
    const departments = Object.fromEntries(data.by_department.map((d) => [d.department, [d.records, d.passed, d.pass_rate]]));
    assert.deepEqual(departments, { Shanghai: [2, 1, 0.5], Beijing: [2, 1, 0.5] });
  });

  test('the score distribution has ten buckets of 10 %; full marks are in the last', async () => {
    const { score_distribution: buckets } = await stats();
    assert.equal(buckets.length, 10);
    assert.deepEqual(buckets[0], { from: 0, to: 10, count: 1 });
    assert.deepEqual(buckets.map((b) => b.count), [1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
    assert.deepEqual(buckets[9], { from: 90, to: 100, count: 1 });
  });

  test('the trend groups by the reader\'s day or month', async () => {
    const list = await ts.api.get('/api/system/exam-records?size=10', { token: ts.adminToken });
    const localDay = (r: ExamRecord, offset: number) => new Date(Date.parse(r.submitted_at) + offset * 60_000).toISOString().slice(0, 10);
    for (const offset of [0, 480, -300]) {
      const days = new Map<string, number>();
      for (const r of list.body.data.items as ExamRecord[]) days.set(localDay(r, offset), (days.get(localDay(r, offset)) ?? 0) + 1);
      const { trend } = await stats(`?tz_offset=${offset}`);
      assert.deepEqual(trend.map((p) => [p.period, p.records]), [...days].sort(([a], [b]) => a.localeCompare(b)), `offset ${offset}`);
    }
    const { trend } = await stats('?granularity=month');
    assert.equal(trend.reduce((sum, p) => sum + p.records, 0), 4);
    assert.ok(trend.every((p) => /^\d{4}-\d{2}$/.test(p.period)));
  });

  test('filters are the records list\'s: paper, department, result, time', async () => {
    assert.equal((await stats(`?paper_id=${paperB.id}`)).overall.records, 1);
    const bj = await stats('?department=Beijing');
    assert.deepEqual(bj.by_department.map((d) => d.department), ['Beijing']);
    assert.equal(bj.overall.records, 2);
    assert.equal((await stats('?passed=true')).overall.passed, 2);
    assert.deepEqual((await stats('?to=2000-01-01')).overall, { records: 0, passed: 0, pass_rate: 0, average_percent: 0, people: 0, people_passed: 0, people_pass_rate: 0 });
    assert.equal((await stats('?from=2000-01-01')).overall.records, 4);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    assert.equal((await stats(`?from=${encodeURIComponent(future)}`)).overall.records, 0);
  });

  test('bad filters are 400 validation_failed', async () => {
    for (const query of ['?tz_offset=90', '?tz_offset=abc', '?granularity=week', '?from=yesterday', '?to=2026-13-01', '?passed=maybe', '?paper_id=x']) {
      const res = await ts.api.get(`/api/system/exam-stats${query}`, { token: ts.adminToken });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error, 'validation_failed', query);
    }
  });
});

describe('record filters', () => {
  test('department and time narrow the admin list', async () => {
    const bj = await ts.api.get('/api/system/exam-records?department=Beijing', { token: ts.adminToken });
    assert.equal(bj.body.data.total, 2);
    assert.ok((bj.body.data.items as ExamRecord[]).every((r) => r.user_id === beijing.id));
    const none = await ts.api.get('/api/system/exam-records?to=2000-01-01T00:00:00Z', { token: ts.adminToken });
    assert.equal(none.body.data.total, 0);
  });
});

describe('records export', () => {
  const download = (query: string, token = ts.adminToken) => fetch(`${ts.url}/api/system/exam-records/export${query}`, { headers: { authorization: `Bearer ${token}` } });

  const rowsOf = async (res: Response) => {
    const { default: Excel } = await import('exceljs');
    const workbook = new Excel.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: sheet.name, rows };
  };

  test('admins only, filters checked first', async () => {
    assert.equal((await download('', shanghai.token)).status, 403);
    assert.equal((await fetch(`${ts.url}/api/system/exam-records/export`)).status, 401);
    const bad = await download('?lang=fr');
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { error: string }).error, 'validation_failed');
  });

  test('an xlsx of every matching record, newest first, in Chinese by default', async () => {
    const res = await download('');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    // A Chinese name (filename*, UTF-8) for a Chinese sheet, dated in the firm's time zone.
    assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`^attachment; filename="[^"]*"; filename\\*=UTF-8''${encodeURIComponent('考试记录')}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
    const { name, rows } = await rowsOf(res);
    assert.equal(name, '考试记录');
    assert.deepEqual(rows[0]!.slice(0, 5), ['姓名', '用户名', '部门', '考试', '得分']);
    assert.equal(rows.length, 5);
    const newest = rows[1]!;
    assert.deepEqual(newest.slice(1, 8), [beijing.username, 'Beijing', 'Stats paper B', 33.33, 100, 60, '未通过']);
  });

  test('the same filters as the list; English headers on request', async () => {
    const { name, rows } = await rowsOf(await download(`?lang=en&department=Shanghai&passed=true&tz_offset=480`));
    assert.equal(name, 'Exam records');
    assert.equal(rows[0]![7], 'Result');
    assert.equal(rows.length, 2);
    assert.deepEqual(rows[1]!.slice(1, 8), [shanghai.username, 'Shanghai', 'Stats paper A', 100, 100, 60, 'passed']);
    assert.match(String(rows[1]![12]), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });
});

describe('paged bank lists for the admin screens', () => {
  test('questions: page, size and stem search', async () => {
    const page1 = await ts.api.get(`/api/exam/questions?domain=${domain}&page=1&size=2`, { token: ts.adminToken });
    assert.deepEqual((page1.body.data as Question[]).map((q) => q.id), bank.slice(0, 2).map((q) => q.id));
    const page2 = await ts.api.get(`/api/exam/questions?domain=${domain}&page=2&size=2`, { token: ts.adminToken });
    assert.deepEqual((page2.body.data as Question[]).map((q) => q.id), [bank[2]!.id]);
    const found = await ts.api.get(`/api/exam/questions?status=all&q=${encodeURIComponent('MULTIPLE question')}`, { token: ts.adminToken });
    assert.deepEqual((found.body.data as Question[]).map((q) => q.id), [bank[1]!.id]);
    assert.equal((await ts.api.get('/api/exam/questions?size=0', { token: ts.adminToken })).status, 400);
  });

  test('the bank\'s domains with active and disabled counts', async () => {
    const extra = uniqueDomain('zz');
    const [q] = await addQuestions(ts, extra, 2);
    await ts.api.delete(`/api/exam/questions/${q!.id}`, { token: ts.adminToken });
    const res = await ts.api.get('/api/exam/questions/domains', { token: ts.adminToken });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, [
      { domain, active: 3, disabled: 0 },
      { domain: extra, active: 1, disabled: 1 },
    ]);
    assert.equal((await ts.api.get('/api/exam/questions/domains', { token: shanghai.token })).status, 403);
  });

  test('papers: name search, type, status and paging, newest first', async () => {
    const practice = await addPaper(ts, { name: 'Practice round', domain, type: 'self_test' });
    const get = async (query: string) => ((await ts.api.get(`/api/exam/papers${query}`, { token: ts.adminToken })).body.data as ExamPaperAdmin[]).map((p) => p.id);
    assert.deepEqual(await get('?q=stats%20PAPER'), [paperB.id, paperA.id]);
    assert.deepEqual(await get('?type=self-test'), [practice.id]);
    assert.deepEqual(await get('?type=formal&page=2&size=1'), [paperA.id]);
    assert.deepEqual(await get('?status=inactive'), []);
    assert.equal((await ts.api.get('/api/exam/papers?status=gone', { token: ts.adminToken })).status, 400);
  });
});
