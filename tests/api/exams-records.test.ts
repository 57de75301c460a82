// Exam records (own and admin views, paging, detail) and certificates (list, PDF, ownership).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import type { ExamPaperAdmin, ExamRecordDetail, Question, SubmitResult } from '../../contract/exams.js';
import { addPaper, addQuestions, allRight, answerSheet, start, submit, uniqueDomain } from './exams-fixtures.js';

let ts: TestServer;
let bank: Question[];
let paper: ExamPaperAdmin;
let otherPaper: ExamPaperAdmin;
let alice: { id: number; username: string; token: string };
let bob: { id: number; username: string; token: string };
let alicePassed: SubmitResult;
let aliceFailed: SubmitResult;
let bobPassed: SubmitResult;

async function take(user: { token: string }, p: ExamPaperAdmin, right: boolean): Promise<SubmitResult> {
  const session = await start(ts, user.token, p.id);
  return submit(ts, user.token, session.session_id, right ? allRight(session.questions, bank) : answerSheet(session.questions, bank, () => false));
}

before(async () => {
  ts = await startTestServer();
  const domain = uniqueDomain('records');
  bank = await addQuestions(ts, domain, 3);
  paper = await addPaper(ts, { name: 'Records exam', domain });
  otherPaper = await addPaper(ts, { name: 'Second exam', domain });
  alice = await ts.user('employee', { full_name: 'Alice Example' });
  bob = await ts.user('employee');
  alicePassed = await take(alice, paper, true);
  aliceFailed = await take(alice, paper, false);
  await take(alice, otherPaper, true);
  bobPassed = await take(bob, paper, true);
});
after(() => ts.close());

describe('exam records', () => {
  test('require a token; the admin views require an admin', async () => {
    for (const path of ['/api/exam/record', `/api/exam/record/${alicePassed.record_id}`, '/api/system/exam-records', `/api/system/exam-records/${alicePassed.record_id}`]) {
      assert.equal((await ts.api.get(path)).status, 401, path);
    }
    for (const path of ['/api/system/exam-records', `/api/system/exam-records/${alicePassed.record_id}`]) {
      const res = await ts.api.get(path, { token: alice.token });
      assert.equal(res.status, 403, path);
      assert.equal(res.body.error, 'forbidden');
    }
  });

  test('an employee pages through their own records, newest first', async () => {
    const page1 = await ts.api.get('/api/exam/record?page=1&size=2', { token: alice.token });
    assert.equal(page1.status, 200);
    assert.equal(page1.body.data.total, 3);
    assert.equal(page1.body.data.page, 1);
    assert.equal(page1.body.data.size, 2);
    assert.equal(page1.body.data.items.length, 2);
    const page2 = await ts.api.get('/api/exam/record?page=2&size=2', { token: alice.token });
    assert.equal(page2.body.data.items.length, 1);
    const all = [...page1.body.data.items, ...page2.body.data.items];
    assert.ok(all.every((r: { user_id: number }) => r.user_id === alice.id));
    assert.equal(new Set(all.map((r: { id: number }) => r.id)).size, 3);
    assert.deepEqual(all.map((r: { submitted_at: string }) => r.submitted_at), all.map((r: { submitted_at: string }) => r.submitted_at).sort().reverse());
    assert.equal(page2.body.data.items[0].id, alicePassed.record_id, 'the oldest comes last');

    const first = all.find((r: { id: number }) => r.id === alicePassed.record_id);
    assert.equal(first.session_id, alicePassed.session_id);
    assert.equal(first.exam_name, 'Records exam');
    assert.equal(first.score, 100);
    assert.equal(first.passed, true);
    assert.equal(first.correct_count, 3);
    assert.equal(first.wrong_count, 0);
    assert.equal(first.time_spent_sec, 42);
    assert.equal(first.full_name, 'Alice Example');
    assert.equal(first.certificate_id, alicePassed.certificate_id);
    assert.ok(!('detail' in first), 'the list carries no per-question detail');

    const defaults = await ts.api.get('/api/exam/record', { token: alice.token });
    assert.equal(defaults.body.data.page, 1);
    assert.equal(defaults.body.data.size, 20);
    const byPaper = await ts.api.get(`/api/exam/record?paper_id=${otherPaper.id}`, { token: alice.token });
    assert.equal(byPaper.body.data.total, 1);
    for (const query of ['page=0', 'size=0', 'size=1000', 'page=x']) {
      assert.equal((await ts.api.get(`/api/exam/record?${query}`, { token: alice.token })).status, 400, query);
    }
  });

  test('an admin sees everyone on /exam/record', async () => {
    const res = await ts.api.get('/api/exam/record?size=100', { token: ts.adminToken });
    const users = new Set(res.body.data.items.map((r: { user_id: number }) => r.user_id));
    assert.ok(users.has(alice.id) && users.has(bob.id));
    assert.equal(res.body.data.total, 4);
    const ofBob = await ts.api.get(`/api/exam/record?user_id=${bob.id}&passed=true`, { token: ts.adminToken });
    assert.ok(ofBob.body.data.total >= 1 && ofBob.body.data.items.every((r: { user_id: number; passed: boolean }) => r.user_id === bob.id && r.passed), 'the admin filters apply here too');
    const aliceAsksForBob = await ts.api.get(`/api/exam/record?user_id=${bob.id}`, { token: alice.token });
    assert.ok(aliceAsksForBob.body.data.items.every((r: { user_id: number }) => r.user_id === alice.id), 'an employee still sees only their own');
  });

  test('record detail: own or admin; another employee gets 404', async () => {
    const own = await ts.api.get(`/api/exam/record/${aliceFailed.record_id}`, { token: alice.token });
    assert.equal(own.status, 200);
    const detail = own.body.data as ExamRecordDetail;
    assert.equal(detail.id, aliceFailed.record_id);
    assert.equal(detail.passed, false);
    assert.equal(detail.certificate_id, null);
    assert.equal(detail.detail.length, 3);
    const byId = new Map(bank.map((q) => [q.id, q]));
    for (const [i, d] of detail.detail.entries()) {
      const q = byId.get(d.question_id)!;
      assert.equal(d.order, i + 1);
      assert.equal(d.is_correct, false);
      assert.equal(d.stem, q.stem);
      assert.equal(d.explanation, q.explanation);
      assert.deepEqual(d.options, q.options);
      assert.deepEqual(d.correct_answer, q.type === 'multiple' ? q.answer : q.answer[0]);
      assert.equal(typeof d.user_answer === 'string' || Array.isArray(d.user_answer), true);
    }
    const bySession = await ts.api.get(`/api/exam/record/${aliceFailed.session_id}`, { token: alice.token });
    assert.deepEqual(bySession.body.data, detail);

    const foreign = await ts.api.get(`/api/exam/record/${bobPassed.record_id}`, { token: alice.token });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error, 'not_found');
    assert.equal((await ts.api.get(`/api/exam/record/${bobPassed.session_id}`, { token: alice.token })).status, 404);
    assert.equal((await ts.api.get(`/api/exam/record/${bobPassed.record_id}`, { token: ts.adminToken })).status, 200);
    assert.equal((await ts.api.get('/api/exam/record/999999', { token: alice.token })).status, 404);
    assert.equal((await ts.api.get('/api/exam/record/not-an-id', { token: alice.token })).status, 400);
  });

  test('admin /system/exam-records filters by user and by exam, with detail', async () => {
    const list = async (query: string) => (await ts.api.get(`/api/system/exam-records?${query}`, { token: ts.adminToken })).body.data;
    assert.equal((await list('')).total, 4);
    const ofAlice = await list(`user_id=${alice.id}`);
    assert.equal(ofAlice.total, 3);
    assert.ok(ofAlice.items.every((r: { user_id: number }) => r.user_id === alice.id));
    assert.equal((await list(`paper_id=${paper.id}`)).total, 3);
    assert.equal((await list(`exam_id=${otherPaper.id}`)).total, 1);
    assert.equal((await list(`user_id=${alice.id}&paper_id=${paper.id}`)).total, 2);
    assert.equal((await list(`user_id=${alice.id}&passed=true`)).total, 2);
    const paged = await list('page=2&size=3');
    assert.equal(paged.items.length, 1);
    assert.equal(paged.total, 4);
    assert.equal((await ts.api.get('/api/system/exam-records?user_id=abc', { token: ts.adminToken })).status, 400);

    const detail = await ts.api.get(`/api/system/exam-records/${bobPassed.record_id}`, { token: ts.adminToken });
    assert.equal(detail.status, 200);
    assert.equal(detail.body.data.user_id, bob.id);
    assert.equal(detail.body.data.detail.length, 3);
    assert.equal((await ts.api.get('/api/system/exam-records/999999', { token: ts.adminToken })).status, 404);
  });
});

describe('record filters: username, exam_name, keyword', () => {
  type Row = { user_id: number; exam_name: string };
  const page = async (path: string, token = ts.adminToken) => {
    const res = await ts.api.get(path, { token });
    assert.equal(res.status, 200, res.text);
    return res.body.data as { items: Row[]; total: number };
  };

  for (const path of ['/api/system/exam-records', '/api/exam/record']) {
    test(`${path} (admin) narrows by exact username; an unknown one gives an empty page`, async () => {
      assert.equal((await page(`${path}?size=100`)).total, 4);
      const ofAlice = await page(`${path}?username=${alice.username}`);
      assert.equal(ofAlice.total, 3);
      assert.ok(ofAlice.items.every((r) => r.user_id === alice.id));
      const ofBob = await page(`${path}?username=${bob.username}`);
      assert.equal(ofBob.total, 1);
      assert.equal(ofBob.items[0]!.user_id, bob.id);
      for (const username of ['nobody-at-all', alice.username.slice(0, -1), alice.username.toUpperCase(), '']) {
        const none = await page(`${path}?username=${encodeURIComponent(username)}`);
        assert.equal(none.total, 0, `username "${username}" matches nobody`);
        assert.deepEqual(none.items, []);
      }
      assert.equal((await page(`${path}?username=${alice.username}&paper_id=${otherPaper.id}`)).total, 1);
    });

    test(`${path} (admin) narrows by exam_name, case-insensitive contains`, async () => {
      const second = await page(`${path}?exam_name=SECOND`);
      assert.equal(second.total, 1);
      assert.equal(second.items[0]!.exam_name, 'Second exam');
      const records = await page(`${path}?exam_name=ords ex`);
      assert.equal(records.total, 3);
      assert.ok(records.items.every((r) => r.exam_name === 'Records exam'));
      assert.equal((await page(`${path}?exam_name=exam`)).total, 4);
      assert.equal((await page(`${path}?exam_name=exam%25`)).total, 0, '% is matched literally');
      assert.equal((await page(`${path}?exam_name=Physics`)).total, 0);
    });

    test(`${path} (admin) narrows by keyword over username, full name and exam name`, async () => {
      const byFullName = await page(`${path}?keyword=alice%20EX`);
      assert.equal(byFullName.total, 3);
      assert.ok(byFullName.items.every((r) => r.user_id === alice.id));
      const byUsername = await page(`${path}?keyword=${bob.username.slice(2).toUpperCase()}`);
      assert.equal(byUsername.total, 1);
      assert.equal(byUsername.items[0]!.user_id, bob.id);
      assert.equal((await page(`${path}?keyword=second`)).total, 1, 'by exam name');
      assert.equal((await page(`${path}?keyword=alice&exam_name=records`)).total, 2);
      assert.equal((await page(`${path}?keyword=zzz-nothing`)).total, 0);
    });
  }

  test('an employee filters only within their own records', async () => {
    assert.equal((await page(`/api/exam/record?username=${bob.username}`, alice.token)).total, 0);
    assert.equal((await page(`/api/exam/record?username=${alice.username}`, alice.token)).total, 3);
    assert.equal((await page(`/api/exam/record?keyword=${bob.username}`, alice.token)).total, 0);
    assert.equal((await page('/api/exam/record?exam_name=second', alice.token)).total, 1);
  });

  test('a text filter longer than 200 characters is a 400', async () => {
    for (const name of ['username', 'exam_name', 'keyword']) {
      const res = await ts.api.get(`/api/system/exam-records?${name}=${'x'.repeat(201)}`, { token: ts.adminToken });
      assert.equal(res.status, 400, name);
      assert.equal(res.body.error, 'validation_failed');
    }
  });
});

describe('certificates', () => {
  test('a passed formal record issues one certificate, a failed one none', async () => {
    const res = await ts.api.get('/api/exam/certificates', { token: alice.token });
    assert.equal(res.status, 200);
    const certs = res.body.data;
    assert.equal(certs.length, 2, 'two passes, one fail');
    const cert = certs.find((c: { record_id: number }) => c.record_id === alicePassed.record_id);
    assert.equal(cert.id, alicePassed.certificate_id);
    assert.equal(cert.user_id, alice.id);
    assert.equal(cert.full_name, 'Alice Example');
    assert.equal(cert.exam_name, 'Records exam');
    assert.equal(cert.score, 100);
    assert.match(cert.certificate_no, /^TB-\d{8}-\d{6}$/);
    assert.equal(cert.pdf_url, `/api/exam/certificates/${cert.id}/pdf`);
    assert.ok(!certs.some((c: { record_id: number }) => c.record_id === aliceFailed.record_id));
    assert.equal((await ts.api.get('/api/exam/certificates')).status, 401);
  });

  test('the PDF is a real PDF for the owner and admins; 404 for anyone else', async () => {
    const path = `/api/exam/certificates/${alicePassed.certificate_id}/pdf`;
    const res = await fetch(ts.url + path, { headers: { authorization: `Bearer ${alice.token}` } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="certificate-TB-/);
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(bytes.subarray(-8).toString('latin1').includes('%%EOF'));
    assert.ok(bytes.length > 1000);

    const admin = await fetch(ts.url + path, { headers: { authorization: `Bearer ${ts.adminToken}` } });
    assert.equal(admin.status, 200);
    const foreign = await ts.api.get(path, { token: bob.token });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error, 'not_found');
    assert.equal((await ts.api.get(path)).status, 401);
    assert.equal((await ts.api.get('/api/exam/certificates/999999/pdf', { token: alice.token })).status, 404);
    assert.equal((await ts.api.get('/api/exam/certificates/x/pdf', { token: alice.token })).status, 400);
    const own = await ts.api.get(`/api/exam/certificates/${alicePassed.certificate_id}`, { token: alice.token });
    assert.equal(own.status, 200);
    assert.equal(own.body.data.record_id, alicePassed.record_id);
    assert.equal((await ts.api.get(`/api/exam/certificates/${alicePassed.certificate_id}`, { token: bob.token })).status, 404);
  });

  test('names outside Latin-1 still give a valid PDF', async () => {
    const wang = await ts.user('employee', { full_name: '王小明' });
    const result = await take(wang, paper, true);
    const res = await fetch(`${ts.url}/api/exam/certificates/${result.certificate_id}/pdf`, { headers: { authorization: `Bearer ${wang.token}` } });
    assert.equal(res.status, 200);
    assert.equal(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString('latin1'), '%PDF-');
  });
});
