import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { ReadableStream } from 'node:stream/web';
import ExcelJS from 'exceljs';
import { Document, Packer, Paragraph, HeadingLevel } from 'docx';
import JSZip from 'jszip';
import { startTestServer, type TestServer } from '../support/server.js';
import { signedFileUrl } from '../../server/media/media.signing.js';
import { searchChunks } from '../../server/knowledge/search.js';
import { approve, downloadSha256, filesUnder, form, pdf, sendChunk, settledExtraction, sha256, upload, uploadOk } from './media-fixtures.js';

const MB = 1024 * 1024;
const text = (s: string) => new TextEncoder().encode(s);

async function docx(heading: string, paragraphs: string[]): Promise<Uint8Array> {
  const doc = new Document({ sections: [{ children: [new Paragraph({ text: heading, heading: HeadingLevel.HEADING_1 }), ...paragraphs.map((p) => new Paragraph(p))] }] });
  return new Uint8Array(await Packer.toBuffer(doc));
}

async function xlsx(rows: (string | number)[][]): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Rates').addRows(rows);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/** A multipart body of `size` file bytes produced on the fly, so the test never holds it. */
async function* oversizedForm(boundary: string, size: number): AsyncGenerator<Uint8Array> {
  yield text(`--${boundary}\r\nContent-Disposition: form-data; name="bind_type"\r\n\r\nnone\r\n`);
  yield text(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.mp4"\r\nContent-Type: video/mp4\r\n\r\n`);
  const block = new Uint8Array(MB).fill(7);
  for (let sent = 0; sent < size; sent += block.length) yield block;
  yield text(`\r\n--${boundary}--\r\n`);
}

describe('media: direct upload, audit, preview, files, extraction', () => {
  let s: TestServer;
  let employee: { id: number; token: string; username: string };
  let other: { id: number; token: string };
  const admin = () => ({ token: s.adminToken });
  const mediaDir = () => path.join(s.dataDir, 'media');

  before(async () => {
    s = await startTestServer();
    employee = await s.user();
    other = await s.user();
  });
  after(() => s?.close());

  describe('POST /api/media/upload', () => {
    test('stores a pending media under a generated name; the client name is data only', async () => {
      const data = text('hello media');
      const res = await upload(s.api, employee.token, 'notes.TXT', data);
      assert.equal(res.status, 201, res.text);
      const media = res.body.data;
      assert.equal(media.status, 'pending');
      assert.equal(media.filename, 'notes.TXT');
      assert.equal(media.file_ext, 'txt');
      assert.equal(media.mime_type, 'text/plain');
      assert.equal(media.size, data.length);
      assert.equal(media.bind_type, 'none');
      assert.equal(media.bind_id, null);
      assert.equal(media.uploaded_by, employee.id);
      assert.equal(media.preview_url, null);
      assert.deepEqual(media.extraction, { state: 'not_started', progress: 0, stage: '', chunks: 0, error: null });
      for (const name of await filesUnder(path.join(mediaDir(), 'files'))) assert.match(name, /^[0-9a-f]{32}$/);
    });

    test('traversal names and control characters are harmless', async () => {
      const before = await filesUnder(mediaDir());
      const names: [string, string][] = [
        ['../../etc/passwd', 'passwd'],
        ['..\\..\\windows\\system32\\evil.exe', 'evil.exe'],
        ['a\u0000b\u0007c.txt', 'abc.txt'],
        ['..', 'file'],
      ];
      for (const [sent, kept] of names) {
        const res = await upload(s.api, employee.token, sent, text('x'));
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body.data.filename, kept);
      }
      const added = (await filesUnder(mediaDir())).filter((f) => !before.includes(f));
      assert.equal(added.length, names.length);
      for (const file of added) assert.match(file, /^files\/[0-9a-f]{32}$/);
    });

    test('bind_type and bind_id are validated; the bound product or course must exist', async () => {
      const product = (await s.api.post('/api/products', { ...admin(), body: { name: 'Bound product' } })).body.data;
      const ok = await upload(s.api, employee.token, 'p.pdf', text('%PDF'), { bind_type: 'product', bind_id: product.id });
      assert.equal(ok.status, 201, ok.text);
      assert.deepEqual([ok.body.data.bind_type, ok.body.data.bind_id], ['product', product.id]);
      const cases: [Record<string, string | number>, RegExp][] = [
        [{ bind_type: 'product', bind_id: 999999 }, /product 999999 does not exist/],
        [{ bind_type: 'course', bind_id: 999999 }, /course 999999 does not exist/],
        [{ bind_type: 'course' }, /bind_id/],
        [{ bind_type: 'product', bind_id: 0 }, /product 0 does not exist/],
        [{ bind_type: 'planet' }, /bind_type/],
        [{ bind_type: 'product', bind_id: 'abc' }, /bind_id/],
      ];
      for (const [fields, message] of cases) {
        const res = await upload(s.api, employee.token, 'x.txt', text('x'), fields);
        assert.equal(res.status, 400, JSON.stringify(fields));
        assert.equal(res.body.error, 'validation_failed');
        assert.match(res.body.message, message);
      }
      for (const fields of [{ bind_type: 'company', bind_id: 3 }, { bind_type: 'none', bind_id: 0 }]) {
        const res = await upload(s.api, employee.token, 'x.txt', text('x'), fields);
        assert.equal(res.status, 201, `${JSON.stringify(fields)}: ${res.text}`);
        assert.deepEqual([res.body.data.bind_type, res.body.data.bind_id], [fields.bind_type, null], 'an id sent with company or none is dropped');
      }
    });

    test('400 without a file or without multipart, 401 without a token', async () => {
      const noFile = await s.api.post('/api/media/upload', { token: employee.token, form: form({ bind_type: 'none' }) });
      assert.equal(noFile.status, 400);
      assert.match(noFile.body.message, /file/);
      const json = await s.api.post('/api/media/upload', { token: employee.token, body: { file: 'x' } });
      assert.equal(json.status, 400);
      const anonymous = await upload(s.api, '', 'x.txt', text('x'));
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error, 'unauthorized');
    });

    test('a file over 200 MB streamed without a length is a 413 that leaves nothing behind', async () => {
      const filesBefore = await filesUnder(mediaDir());
      const boundary = 'oversize-boundary';
      const res = await fetch(`${s.url}/api/media/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${employee.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: ReadableStream.from(oversizedForm(boundary, 201 * MB)) as unknown as BodyInit,
        duplex: 'half',
      } as RequestInit);
      assert.equal(res.status, 413);
      const body = await res.json();
      assert.deepEqual([body.data, body.error], [null, 'payload_too_large']);
      assert.deepEqual(await filesUnder(mediaDir()), filesBefore);
      assert.equal((await s.api.get('/api/media/audit-list?status=all&size=200', admin())).body.data.items.some((m: { filename: string }) => m.filename === 'huge.mp4'), false);
    });

    test('a declared Content-Length over the limit is refused before the body is read', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(`${s.url}/api/media/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${employee.token}`, 'content-type': 'multipart/form-data; boundary=b', 'content-length': String(300 * MB) },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', reject);
        req.write('--b\r\n');
      });
      assert.equal(status, 413);
    });
  });

  describe('GET /api/media/{id} and /status/{id}', () => {
    test('the uploader and admins see a pending media; another employee gets 404', async () => {
      const id = await uploadOk(s.api, employee.token, 'mine.txt', text('mine'));
      for (const route of [`/api/media/${id}`, `/api/media/status/${id}`]) {
        assert.equal((await s.api.get(route, { token: employee.token })).status, 200, route);
        assert.equal((await s.api.get(route, admin())).status, 200, route);
        assert.equal((await s.api.get(route, { token: other.token })).status, 404, route);
        assert.equal((await s.api.get(route)).status, 401, route);
      }
      const status = (await s.api.get(`/api/media/status/${id}`, { token: employee.token })).body.data;
      assert.deepEqual(status, { id, status: 'pending', reject_reason: null, extraction: { state: 'not_started', progress: 0, stage: '', chunks: 0, error: null } });
      assert.equal((await s.api.get('/api/media/999999', admin())).status, 404);
      assert.equal((await s.api.get('/api/media/status/999999', admin())).status, 404);
      assert.equal((await s.api.get('/api/media/abc', admin())).status, 400);
    });
  });

  describe('audit', () => {
    test('audit-list: admin only, pending by default, paged, status filter validated', async () => {
      const id = await uploadOk(s.api, employee.token, 'to-review.txt', text('review me'));
      const list = await s.api.get('/api/media/audit-list?page=1&size=2', admin());
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(Object.keys(list.body.data).sort(), ['items', 'page', 'size', 'total']);
      assert.equal(list.body.data.items.length, 2);
      assert.ok(list.body.data.total > 2);
      assert.ok(list.body.data.items.every((m: { status: string }) => m.status === 'pending'));
      assert.equal(list.body.data.items[0].id, id, 'newest first');
      assert.equal(list.body.data.items[0].uploader_name, `Full ${employee.username}`);
      const page2 = (await s.api.get('/api/media/audit-list?page=2&size=2', admin())).body.data;
      assert.equal(page2.page, 2);
      assert.ok(!page2.items.some((m: { id: number }) => m.id === id));
      assert.equal((await s.api.get('/api/media/audit-list?status=bogus', admin())).status, 400);
      assert.equal((await s.api.get('/api/media/audit-list?size=0', admin())).status, 400);
      assert.equal((await s.api.get('/api/media/audit-list', { token: employee.token })).status, 403);
      assert.equal((await s.api.get('/api/media/audit-list')).status, 401);
    });

    test('reject needs a reason (400, nothing changed); a decided media cannot be audited again (409)', async () => {
      const id = await uploadOk(s.api, employee.token, 'reject-me.txt', text('nope'));
      for (const body of [{ action: 'reject' }, { action: 'reject', reject_reason: '   ' }, { action: 'maybe' }, {}]) {
        const res = await s.api.post(`/api/media/audit/${id}`, { ...admin(), body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error, 'validation_failed');
      }
      assert.equal((await s.api.get(`/api/media/${id}`, admin())).body.data.status, 'pending');
      const rejected = await s.api.post(`/api/media/audit/${id}`, { ...admin(), body: { action: 'reject', reject_reason: 'Blurry scan' } });
      assert.equal(rejected.status, 200, rejected.text);
      assert.deepEqual([rejected.body.data.status, rejected.body.data.reject_reason, rejected.body.data.preview_url], ['rejected', 'Blurry scan', null]);
      const again = await s.api.post(`/api/media/audit/${id}`, { ...admin(), body: { action: 'approve' } });
      assert.equal(again.status, 409);
      assert.equal(again.body.error, 'media.not_pending');
      assert.equal((await s.api.get(`/api/media/preview/${id}`, { token: employee.token })).status, 404);
      const rejectedList = (await s.api.get('/api/media/audit-list?status=rejected', admin())).body.data.items;
      assert.ok(rejectedList.some((m: { id: number }) => m.id === id));
    });

    test('401, 403 and 404 on audit', async () => {
      const id = await uploadOk(s.api, employee.token, 'guarded.txt', text('x'));
      assert.equal((await s.api.post(`/api/media/audit/${id}`, { body: { action: 'approve' } })).status, 401);
      assert.equal((await s.api.post(`/api/media/audit/${id}`, { token: employee.token, body: { action: 'approve' } })).status, 403);
      assert.equal((await s.api.post('/api/media/audit/999999', { ...admin(), body: { action: 'approve' } })).status, 404);
    });
  });

  describe('preview and file', () => {
    const content = new Uint8Array(Array.from({ length: 1000 }, (_, i) => i % 251));
    let id: number;
    let previewUrl: string;

    before(async () => {
      id = await uploadOk(s.api, employee.token, 'clip one.mp4', content);
      const pendingPreview = await s.api.get(`/api/media/preview/${id}`, { token: employee.token });
      assert.equal(pendingPreview.status, 404);
      const approved = await approve(s.api, s.adminToken, id);
      assert.deepEqual(approved.body.data.extraction, { state: 'skipped', progress: 100, stage: 'not_text', chunks: 0, error: null });
      const preview = await s.api.get(`/api/media/preview/${id}`, { token: other.token });
      assert.equal(preview.status, 200, preview.text);
      previewUrl = preview.body.data.preview_url;
      assert.match(previewUrl, new RegExp(`^/api/media/file/${id}\\?token=\\d+\\.[A-Za-z0-9_-]+$`));
      assert.equal(preview.body.data.kind, 'video');
      assert.ok(Date.parse(preview.body.data.expires_at) > Date.now());
    });

    test('the preview URL opens without any header, with content type and byte-exact content', async () => {
      const res = await fetch(s.url + previewUrl);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'video/mp4');
      assert.equal(res.headers.get('accept-ranges'), 'bytes');
      assert.equal(res.headers.get('content-length'), '1000');
      assert.equal(res.headers.get('content-disposition'), 'inline; filename="clip one.mp4"');
      assert.equal(sha256(new Uint8Array(await res.arrayBuffer())), sha256(content));
    });

    test('Range requests: 206 with Content-Range, suffix and open ranges, 416 past the end, ignored when malformed', async () => {
      const ranged = async (range: string) => {
        const res = await fetch(s.url + previewUrl, { headers: { range } });
        return { status: res.status, contentRange: res.headers.get('content-range'), body: new Uint8Array(await res.arrayBuffer()) };
      };
      const first = await ranged('bytes=0-9');
      assert.deepEqual([first.status, first.contentRange], [206, 'bytes 0-9/1000']);
      assert.deepEqual(first.body, content.slice(0, 10));
      const middle = await ranged('bytes=500-');
      assert.deepEqual([middle.status, middle.contentRange, middle.body.length], [206, 'bytes 500-999/1000', 500]);
      assert.deepEqual(middle.body, content.slice(500));
      const suffix = await ranged('bytes=-5');
      assert.deepEqual([suffix.status, suffix.contentRange], [206, 'bytes 995-999/1000']);
      assert.deepEqual(suffix.body, content.slice(995));
      const clamped = await ranged('bytes=990-5000');
      assert.deepEqual([clamped.status, clamped.contentRange, clamped.body.length], [206, 'bytes 990-999/1000', 10]);
      const beyond = await ranged('bytes=1000-');
      assert.deepEqual([beyond.status, beyond.contentRange], [416, 'bytes */1000']);
      assert.equal(JSON.parse(new TextDecoder().decode(beyond.body)).error, 'media.range_not_satisfiable');
      for (const ignored of ['bytes=abc', 'items=0-1', 'bytes=0-1,5-6', 'bytes=9-3']) {
        const whole = await ranged(ignored);
        assert.deepEqual([whole.status, whole.body.length], [200, 1000], ignored);
      }
    });

    test('the file needs a valid, unexpired token of that media and an approved media', async () => {
      const base = `/api/media/file/${id}`;
      const missing = await s.api.get(base);
      assert.equal(missing.status, 401);
      const token = new URL(previewUrl, s.url).searchParams.get('token')!;
      const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
      for (const bad of [tampered, 'garbage', `${Number(token.split('.')[0]) + 10}.${token.split('.')[1]}`]) {
        const res = await s.api.get(`${base}?token=${encodeURIComponent(bad)}`);
        assert.equal(res.status, 403, bad);
        assert.equal(res.body.error, 'media.invalid_file_token');
      }
      const otherId = await uploadOk(s.api, employee.token, 'pending.mp4', content);
      const forPending = signedFileUrl(s.server.db, otherId).url;
      assert.equal((await s.api.get(forPending)).status, 404, 'a valid token does not open a pending media');
      const crossed = `/api/media/file/${otherId}?token=${token}`;
      assert.equal((await s.api.get(crossed)).status, 403, "another media's token");
      const expired = signedFileUrl(s.server.db, id, Date.now() - 3 * 3600 * 1000).url;
      const res = await s.api.get(expired);
      assert.equal(res.status, 403);
      assert.match(res.body.message, /expired/);
    });

    test('preview: 401 without a token, 404 for an unknown id', async () => {
      assert.equal((await s.api.get(`/api/media/preview/${id}`)).status, 401);
      assert.equal((await s.api.get('/api/media/preview/999999', { token: employee.token })).status, 404);
    });

    test('an approved media is readable by any user (it is on public pages)', async () => {
      const res = await s.api.get(`/api/media/${id}`, { token: other.token });
      assert.equal(res.status, 200);
      assert.match(res.body.data.preview_url, /^\/api\/media\/file\//);
    });
  });

  describe('the reviewer and the uploader', () => {
    const notesOf = async (token: string) => (await s.api.get('/api/notifications', { token })).body.data as { title: string; content: string; link: string; type: string }[];

    test('an admin opens a pending file before deciding, through a review link only an admin is given', async () => {
      const content = text('pending bytes to review');
      const id = await uploadOk(s.api, employee.token, 'to review.pdf', content);
      assert.equal((await s.api.get(`/api/media/audit/${id}/preview`, { token: employee.token })).status, 403);
      assert.equal((await s.api.get(`/api/media/audit/${id}/preview`)).status, 401);
      assert.equal((await s.api.get('/api/media/audit/999999/preview', admin())).status, 404);
      const preview = await s.api.get(`/api/media/audit/${id}/preview`, admin());
      assert.equal(preview.status, 200, preview.text);
      assert.deepEqual([preview.body.data.id, preview.body.data.kind, preview.body.data.filename], [id, 'pdf', 'to review.pdf']);
      const url: string = preview.body.data.preview_url;
      assert.match(url, new RegExp(`^/api/media/audit/${id}/file\\?token=`));
      const file = await fetch(s.url + url);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'application/pdf');
      assert.equal(sha256(new Uint8Array(await file.arrayBuffer())), sha256(content));
      const ranged = await fetch(s.url + url, { headers: { range: 'bytes=0-6' } });
      assert.deepEqual([ranged.status, new TextDecoder().decode(await ranged.arrayBuffer())], [206, 'pending']);
      // The ordinary file URL still refuses a pending media, and a review token opens nothing but its own media.
      const token = new URL(url, s.url).searchParams.get('token')!;
      assert.equal((await s.api.get(`/api/media/file/${id}?token=${token}`)).status, 403);
      const otherId = await uploadOk(s.api, employee.token, 'other.pdf', content);
      assert.equal((await s.api.get(`/api/media/audit/${otherId}/file?token=${token}`)).status, 403);
      assert.equal((await s.api.get(`/api/media/audit/${id}/file`)).status, 401);
      assert.equal((await s.api.get(`/api/media/audit/${id}/file?token=${encodeURIComponent(signedFileUrl(s.server.db, id).url.split('token=')[1]!)}`)).status, 403, 'a plain file token is not a review token');
      // Still readable once rejected, for the reviewer looking back.
      await s.api.post(`/api/media/audit/${id}`, { ...admin(), body: { action: 'reject', reject_reason: 'Wrong file' } });
      assert.equal((await fetch(s.url + url)).status, 200);
    });

    test('admins are told of new material waiting for review, the uploader of the decision with its reason', async () => {
      const reviewer = await s.user('admin');
      const course = (await s.api.post('/api/courses', { ...admin(), body: { title: 'Notified course' } })).body.data;
      const approvedId = await uploadOk(s.api, employee.token, 'approved-handout.pdf', text('a'), { bind_type: 'course', bind_id: course.id });
      const waiting = (await notesOf(reviewer.token)).find((n) => n.content.includes('approved-handout.pdf'));
      assert.ok(waiting, 'every admin hears of the pending upload');
      assert.equal(waiting.title, '有资料待审核');
      assert.equal(waiting.link, `/admin/media?status=pending&id=${approvedId}`);
      assert.ok(!(await notesOf(other.token)).some((n) => n.content.includes('approved-handout.pdf')), 'employees are not told');

      await approve(s.api, reviewer.token, approvedId);
      const approvedNote = (await notesOf(employee.token)).find((n) => n.title.includes('approved-handout.pdf'));
      assert.ok(approvedNote, 'the uploader hears of the approval');
      assert.equal(approvedNote.title, '资料已通过审核：approved-handout.pdf');
      assert.equal(approvedNote.link, `/courses/${course.id}`);

      assert.equal((await s.api.put('/api/auth/me', { token: employee.token, body: { locale: 'en' } })).status, 200, 'the next notice in the uploader\'s language');
      const rejectedId = await uploadOk(s.api, employee.token, 'rejected-handout.pdf', text('r'));
      const rejected = await s.api.post(`/api/media/audit/${rejectedId}`, { token: reviewer.token, body: { action: 'reject', reject_reason: '内容过期' } });
      assert.equal(rejected.status, 200, rejected.text);
      const rejectedNote = (await notesOf(employee.token)).find((n) => n.title.includes('rejected-handout.pdf'));
      assert.ok(rejectedNote, 'the uploader hears of the rejection');
      assert.equal(rejectedNote.title, 'Material rejected: rejected-handout.pdf');
      assert.match(rejectedNote.content, /Reason: 内容过期/);
      assert.equal(rejectedNote.link, '/media/upload');

      // An admin's own upload is not announced to themselves, nor their own decision on it.
      const own = await uploadOk(s.api, reviewer.token, 'own-upload.pdf', text('o'));
      assert.ok(!(await notesOf(reviewer.token)).some((n) => n.content.includes('own-upload.pdf')));
      assert.ok((await notesOf(s.adminToken)).some((n) => n.content.includes('own-upload.pdf')), 'the other admins are told');
      await approve(s.api, reviewer.token, own);
      assert.ok(!(await notesOf(reviewer.token)).some((n) => n.title.includes('own-upload.pdf')));
    });

    test('a chunked upload announces itself once, when completed', async () => {
      const init = await s.api.post('/api/media/upload/init', { token: employee.token, body: { filename: 'chunked-notice.txt', file_size: 5, bind_type: 'none' } });
      assert.equal(init.status, 201, init.text);
      const uploadId = init.body.data.upload_id;
      assert.equal((await sendChunk(s.api, employee.token, uploadId, 0, text('12345'))).status, 200);
      for (let i = 0; i < 2; i++) assert.ok([200, 201].includes((await s.api.post('/api/media/upload/complete', { token: employee.token, body: { upload_id: uploadId } })).status));
      const notes = (await notesOf(s.adminToken)).filter((n) => n.content.includes('chunked-notice.txt'));
      assert.equal(notes.length, 1);
    });
  });

  describe('company introduction, course detail and suggest-material', () => {
    test('only approved media are listed, with preview URLs that open', async () => {
      const course = (await s.api.post('/api/courses', { ...admin(), body: { title: 'Media course' } })).body.data;
      const shownCourse = await uploadOk(s.api, employee.token, 'lesson.mp4', text('lesson'), { bind_type: 'course', bind_id: course.id });
      const hiddenCourse = await uploadOk(s.api, employee.token, 'draft.mp4', text('draft'), { bind_type: 'course', bind_id: course.id });
      const shownCompany = await uploadOk(s.api, employee.token, 'about.png', text('png'), { bind_type: 'company' });
      await uploadOk(s.api, employee.token, 'pending-about.png', text('png'), { bind_type: 'company' });
      await approve(s.api, s.adminToken, shownCourse);
      await approve(s.api, s.adminToken, shownCompany);
      const detail = (await s.api.get(`/api/courses/${course.id}`, { token: employee.token })).body.data;
      assert.deepEqual(detail.medias.map((m: { id: number }) => m.id), [shownCourse]);
      assert.ok(!detail.medias.some((m: { id: number }) => m.id === hiddenCourse));
      const intro = (await s.api.get('/api/company-train', { token: employee.token })).body.data;
      assert.deepEqual(intro.medias.map((m: { id: number }) => m.id), [shownCompany]);
      const [summary] = intro.medias;
      assert.deepEqual(Object.keys(summary).sort(), ['file_ext', 'filename', 'id', 'preview_url']);
      const file = await downloadSha256(s.url, summary.preview_url);
      assert.deepEqual([file.status, file.sha256], [200, sha256(text('png'))]);
    });

    test('suggest-material: any user, pending company media with the remark, admins notified', async () => {
      const res = await s.api.post('/api/company-train/suggest-material', {
        token: employee.token,
        form: form({ remark: 'Our new brochure' }, { name: 'brochure.pdf', data: text('%PDF-1.4') }),
      });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual([res.body.data.status, res.body.data.bind_type, res.body.data.remark, res.body.data.filename], ['pending', 'company', 'Our new brochure', 'brochure.pdf']);
      const notes = (await s.api.get('/api/notifications', admin())).body.data;
      const note = notes.find((n: { content: string }) => n.content.includes('brochure.pdf'));
      assert.ok(note, 'admin notified');
      assert.match(note.content, /Our new brochure/);
      const employeeNotes = (await s.api.get('/api/notifications', { token: other.token })).body.data;
      assert.ok(!employeeNotes.some((n: { content: string }) => n.content.includes('brochure.pdf')));
      const noRemark = await s.api.post('/api/company-train/suggest-material', { token: other.token, form: form({}, { name: 'b.txt', data: text('b') }) });
      assert.deepEqual([noRemark.status, noRemark.body.data?.remark], [201, '']);
      assert.equal((await s.api.post('/api/company-train/suggest-material', { token: employee.token, form: form({ remark: 'x' }) })).status, 400);
      assert.equal((await s.api.post('/api/company-train/suggest-material', { form: form({}, { name: 'b.txt', data: text('b') }) })).status, 401);
    });
  });

  describe('text extraction on approve', () => {
    const extracted = async (name: string, data: Uint8Array) => {
      const id = await uploadOk(s.api, employee.token, name, data);
      const approved = await approve(s.api, s.adminToken, id);
      assert.ok(['queued', 'running', 'done'].includes(approved.body.data.extraction.state), 'approve does not wait for the extraction');
      return { id, status: await settledExtraction(s.api, employee.token, id) };
    };

    const assertSearchable = async (word: string, id: number) => {
      const hits = await searchChunks(s.server.db, word, 10);
      assert.ok(hits.some((h) => h.source.type === 'media' && h.source.id === id && h.content.includes(word)), `chunk with ${word} from media ${id}`);
    };

    test('a real pdf (made with pdfkit) is extracted page by page and ingested as chunks', async () => {
      const { id, status } = await extracted('handbook.pdf', await pdf(['Quarterly zephyrfund handbook', 'Second page about commissions']));
      assert.deepEqual(status.extraction, { state: 'done', progress: 100, stage: 'done', chunks: status.extraction.chunks, error: null });
      assert.ok(status.extraction.chunks >= 1);
      await assertSearchable('zephyrfund', id);
    });

    test('a real docx (made with docx) is extracted and ingested', async () => {
      const { id, status } = await extracted('script.docx', await docx('Sales script', ['Greet the client about the quokkabond offer.', '第二段：风险提示。']));
      assert.equal(status.extraction.state, 'done', JSON.stringify(status.extraction));
      assert.ok(status.extraction.chunks >= 1);
      await assertSearchable('quokkabond', id);
    });

    test('a pptx deck (zip of slide XML, made with jszip) is extracted slide by slide', async () => {
      const zip = new JSZip();
      const slide = (lines: string[]) =>
        `<?xml version="1.0"?><p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody>${lines.map((l) => `<a:p><a:r><a:t>${l}</a:t></a:r></a:p>`).join('')}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
      zip.file('ppt/slides/slide1.xml', slide(['Opening', 'The wombatbond pitch']));
      zip.file('ppt/slides/slide2.xml', slide(['风险提示 and closing']));
      const { id, status } = await extracted('deck.pptx', new Uint8Array(await zip.generateAsync({ type: 'uint8array' })));
      assert.equal(status.extraction.state, 'done', JSON.stringify(status.extraction));
      await assertSearchable('wombatbond', id);
    });

    test('xlsx, html, md and txt are extracted too', async () => {
      const files: [string, Uint8Array, string][] = [
        ['rates.xlsx', await xlsx([['product', 'rate'], ['narwhalplan', 1.5]]), 'narwhalplan'],
        ['page.html', text('<html><body><h1>Intro</h1><p>The ocelotfund story</p><script>alert(1)</script></body></html>'), 'ocelotfund'],
        ['guide.md', text('# Guide\n\nThe axolotlbond section.'), 'axolotlbond'],
        ['plain.txt', text('\uFEFFThe pangolinsaver notes.'), 'pangolinsaver'],
      ];
      for (const [name, data, word] of files) {
        const { id, status } = await extracted(name, data);
        assert.equal(status.extraction.state, 'done', `${name}: ${JSON.stringify(status.extraction)}`);
        await assertSearchable(word, id);
      }
    });

    test('a document that expands far beyond its size fails its extraction, and the server keeps serving', async () => {
      // A valid docx whose text XML is rebuilt with 60 MB of paragraphs: about 100 KB once zipped.
      const zip = await JSZip.loadAsync(await docx('Bomb', ['x']));
      const paragraph = `<w:p><w:r><w:t>${'a'.repeat(200)}</w:t></w:r></w:p>`;
      const body = paragraph.repeat(Math.ceil((60 * 1024 * 1024) / paragraph.length));
      const original = await zip.file('word/document.xml')!.async('string');
      zip.file('word/document.xml', original.replace(/<w:body>[\s\S]*<\/w:body>/, `<w:body>${body}</w:body>`));
      const bomb = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 9 } });
      assert.ok(bomb.length < 2 * 1024 * 1024, `${bomb.length} bytes`);
      const { status } = await extracted('bomb.docx', bomb);
      assert.equal(status.extraction.state, 'failed');
      assert.match(status.extraction.error, /memory/);
      assert.equal((await s.api.get('/api/health')).status, 200);
      const { status: fine } = await extracted('after.docx', await docx('After', ['Still extracting the quillbrook note.']));
      assert.equal(fine.extraction.state, 'done');
    });

    test('a file whose text cannot be extracted ends in a clear failed state', async () => {
      const broken = await extracted('broken.pdf', text('this is not a pdf at all'));
      assert.equal(broken.status.extraction.state, 'failed');
      assert.match(broken.status.extraction.error, /\.pdf/);
      const brokenDocx = await extracted('broken.docx', text('not a zip'));
      assert.equal(brokenDocx.status.extraction.state, 'failed');
      const empty = await extracted('blank.txt', text('   \n\n  '));
      assert.equal(empty.status.extraction.state, 'failed');
      assert.match(empty.status.extraction.error, /No text found/);
      const imageOnly = await extracted('scan.pdf', await pdf(['']));
      assert.equal(imageOnly.status.extraction.state, 'failed');
      assert.equal(imageOnly.status.status, 'approved', 'the media stays approved');
    });
  });
});
