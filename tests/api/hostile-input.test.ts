// Hostile and careless input over real HTTP (issue 34): impossible dates are 400 validation_failed, names and labels
// lose control, zero-width and bidi characters, subtitle exports cannot be given extra cues, download names are
// clean, and messages speak to the client (no parser internals, no `received NaN`, long values clipped).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { addPaper, addQuestions, uniqueDomain } from './exams-fixtures.js';
import { approve, form, uploadOk } from './media-fixtures.js';
import { addCloudRoute, transcribeScript } from './compliance-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const RLO = '\u202E';
const HOSTILE = ['\u0000', '\u200B', '\u200D', '\u2066', RLO, '\uFEFF', '\u0007'];
const hasHostile = (text: string) => HOSTILE.some((c) => text.includes(c));

describe('hostile input', () => {
  let ts: TestServer;
  let fake: FakeModel;
  let rep: { id: number; token: string };
  let paperId: number;
  const admin = () => ({ token: ts.adminToken });

  before(async () => {
    ts = await startTestServer();
    fake = await startFakeModel();
    rep = await ts.user('employee');
    const domain = uniqueDomain('hostile');
    await addQuestions(ts, domain, 3);
    paperId = (await addPaper(ts, { name: 'Hostile paper', domain, question_count: 3 })).id;
    await addCloudRoute(ts, fake);
  });
  after(async () => {
    await ts.close();
    await fake.close();
  });

  describe('dates are real dates', () => {
    const invalid = (res: Json, field: string) => {
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error, 'validation_failed');
      assert.match(res.body.message, new RegExp(field));
    };

    test('an assignment due 2027-02-30 (or starting on 31 April) is refused; 2028-02-29 is a day', async () => {
      const post = (body: Record<string, unknown>) => ts.api.post('/api/assignments', { ...admin(), body: { item: { type: 'exam', id: paperId }, target: { user_ids: [rep.id] }, ...body } });
      invalid(await post({ due_at: '2027-02-30T12:00:00Z' }), 'due_at');
      invalid(await post({ due_at: '2027-13-01T12:00:00+08:00' }), 'due_at');
      invalid(await post({ due_at: '2027-06-01T12:00:00Z', starts_at: '2027-04-31T08:00:00Z' }), 'starts_at');
      const leap = await post({ due_at: '2028-02-29T12:00:00+08:00' });
      assert.equal(leap.status, 201, leap.text);
      assert.equal(leap.body.data.due_at, '2028-02-29T04:00:00.000Z');
    });

    test('a paper opening 2027-02-30 is refused, as a date or a timestamp; real ones are kept', async () => {
      const put = (body: Record<string, unknown>) => ts.api.put(`/api/exam/papers/${paperId}`, { ...admin(), body });
      invalid(await put({ opens_at: '2027-02-30' }), 'opens_at');
      invalid(await put({ closes_at: '2027-02-29T10:00:00Z' }), 'closes_at');
      const fine = await put({ opens_at: '2027-02-28', closes_at: '2027-03-01T10:00:00+08:00' });
      assert.equal(fine.status, 200, fine.text);
      assert.equal(fine.body.data.opens_at, '2027-02-28T00:00:00.000Z');
    });

    test('list filters refuse impossible days too', async () => {
      invalid(await ts.api.get('/api/compliance/inspections?from=2027-02-30', admin()), 'from');
      invalid(await ts.api.get('/api/coaching/reports?to=2026-11-31', admin()), 'to');
      invalid(await ts.api.get('/api/system/exam-records?from=2026-02-29', admin()), 'from');
      assert.equal((await ts.api.get('/api/compliance/inspections?from=2026-11-30', admin())).status, 200);
    });
  });

  describe('names and labels', () => {
    test('user, department and position names lose control, zero-width and bidi characters; only those is empty', async () => {
      const user = await ts.api.post('/api/system/users', { ...admin(), body: { username: `zw\u200Buser${RLO}`, password: 'secret-pass', full_name: `张\u0000三\u200D${RLO}\u2066 \r\n经理` } });
      assert.equal(user.status, 201, user.text);
      assert.equal(user.body.data.username, 'zwuser');
      assert.equal(user.body.data.full_name, '张三 经理');
      const dept = await ts.api.post('/api/system/departments', { ...admin(), body: { name: `${RLO}财富\u200B管理部` } });
      assert.equal(dept.status, 201, dept.text);
      assert.equal(dept.body.data.name, '财富管理部');
      const empty = await ts.api.post('/api/system/positions', { ...admin(), body: { name: '\u200B\u202E\u0000' } });
      assert.equal(empty.status, 400);
      assert.equal(empty.body.error, 'validation_failed');
      // A username that differs from another only by an invisible character is the same name.
      const twin = await ts.api.post('/api/system/users', { ...admin(), body: { username: 'zwuser\uFEFF', password: 'secret-pass', full_name: 'x' } });
      assert.equal(twin.status, 409);
    });

    test('subtitle exports: segment text and speaker names cannot add cues or break lines', async () => {
      const id = await transcribeScript(ts, fake, rep.token, [
        { side: 'rep', text: '您好。' },
        { side: 'customer', text: '你好。' },
      ]);
      const original = (await ts.api.get(`/api/audio/transcriptions/${id}`, { token: rep.token })).body.data;
      const injected = '-->\n\n2\n00:00:00,000 --> 99:00:00,000\nINJECTED CUE';
      const segments = original.segments.map((s: Json, i: number) => ({ start: s.start, end: s.end, speaker: i ? `cust\r\n\r\n3${RLO}` : s.speaker, text: i ? '好' : injected }));
      const saved = await ts.api.put(`/api/audio/transcriptions/${id}/segments`, {
        token: rep.token,
        body: { base_revision: original.revision, segments, speaker_names: { rep: `王\r\n\r\n00:00:01,000 --> 00:00:02,000\n经理${RLO}` } },
      });
      assert.equal(saved.status, 200, saved.text);
      assert.ok(!JSON.stringify(saved.body.data).includes('\\r'), 'labels and names are stored on one line');
      for (const format of ['srt', 'vtt']) {
        const res = await fetch(`${ts.url}/api/audio/transcriptions/${id}/export?format=${format}`, { headers: { authorization: `Bearer ${rep.token}` } });
        assert.equal(res.status, 200);
        const text = await res.text();
        const timings = text.split('\n').filter((line) => line.includes('-->'));
        assert.equal(timings.length, 2, `${format}:\n${text}`);
        assert.ok(timings.every((line) => /^\d\d:\d\d:\d\d[,.]\d{3} --> \d\d:\d\d:\d\d[,.]\d{3}$/.test(line)), text);
        const cues = text.replace(/^WEBVTT\n\n/, '').trim().split(/\n\n/);
        assert.equal(cues.length, 2, `${format}:\n${text}`);
        assert.ok(!hasHostile(text), format);
        assert.match(text, /INJECTED CUE/); // kept as words of the first cue
      }
    });

    test('an upload named with a right-to-left override keeps no override, nor does its download name', async () => {
      const id = await uploadOk(ts.api, rep.token, `${RLO}fdp.txt`, new TextEncoder().encode('hello'));
      const media = (await ts.api.get(`/api/media/${id}`, { token: rep.token })).body.data;
      assert.equal(media.filename, 'fdp.txt');
      // A name stored before this rule is cleaned on the way out.
      await ts.server.db('media_files').where({ id }).update({ filename: `a${RLO}vaw.exe` });
      assert.equal((await approve(ts.api, ts.adminToken, id)).status, 200);
      const preview = await ts.api.get(`/api/media/preview/${id}`, { token: rep.token });
      const res = await fetch(ts.url + preview.body.data.preview_url);
      assert.equal(res.status, 200);
      const disposition = res.headers.get('content-disposition') ?? '';
      assert.ok(!/%E2%80%AE|\u202E/i.test(disposition), disposition);
      assert.match(disposition, /avaw\.exe/);
    });
  });

  describe('messages speak to the client', () => {
    test('a broken multipart body is 400 bad_request in our words, not the parser state', async () => {
      const boundary = 'x-hostile-boundary';
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello`;
      const res = await ts.api.post('/api/media/upload', { token: rep.token, raw: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error, 'bad_request');
      assert.doesNotMatch(res.body.message, /MultipartParser|state =|stream ended/);
    });

    test('a word where a number belongs says it must be a number, never received NaN', async () => {
      const res = await ts.api.get('/api/compliance/inspections?product_id=abc', admin());
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'validation_failed');
      assert.doesNotMatch(res.text, /NaN/);
      assert.match(res.body.message, /product_id: must be a number/);
      const missing = await ts.api.post('/api/system/departments', { ...admin(), body: {} });
      assert.match(missing.body.message, /name: is required/);
      const wrongType = await ts.api.post('/api/system/departments', { ...admin(), body: { name: 5 } });
      assert.match(wrongType.body.message, /name: must be a string/);
    });

    test('a constructor.prototype key is 400 invalid_json, as docs/api.md promises', async () => {
      for (const raw of ['{"name":"x","constructor":{"prototype":{"polluted":true}}}', '{"name":"x","nested":[{"constructor":{"prototype":{}}}]}']) {
        const res = await ts.api.post('/api/system/departments', { ...admin(), raw, headers: { 'content-type': 'application/json' } });
        assert.equal(res.status, 400, raw);
        assert.equal(res.body.error, 'invalid_json');
      }
      // A key merely named constructor, with no prototype inside, is data.
      const plain = await ts.api.post('/api/system/departments', { ...admin(), raw: '{"name":"构造部","constructor":"x"}', headers: { 'content-type': 'application/json' } });
      assert.equal(plain.status, 201, plain.text);
    });

    test('an import report clips a huge cell to 200 characters', async () => {
      const { default: Excel } = await import('exceljs');
      const book = new Excel.Workbook();
      const sheet = book.addWorksheet('users');
      sheet.addRow(['用户名', '姓名', '角色']);
      sheet.addRow([`bad name ${'x'.repeat(30_000)}`, 'A', '员工']);
      const file = new Uint8Array(await book.xlsx.writeBuffer());
      const body = new FormData();
      body.append('file', new Blob([file]), 'users.xlsx');
      const res = await ts.api.post('/api/system/users/import?dry_run=true', { ...admin(), form: body });
      assert.ok(res.text.length < 5_000, `report of ${res.text.length} characters`);
      const report = res.body.data ?? res.body.details;
      const error = report.errors[0];
      assert.equal(error.code, 'invalid_format');
      assert.equal([...error.value].length, 201);
      assert.ok(error.value.endsWith('…'));
    });
  });
});
