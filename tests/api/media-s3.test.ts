// The media suite's key cases with STORAGE=s3 against a real S3-compatible server on loopback (s3rver): direct and
// chunked uploads (chunks out of order, sent twice, raw and multipart), complete (again), Range, 304, If-Range, a
// Chinese download name, text extraction from a temporary copy; and no user file on the node's disk.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startTestServer, type TestServer } from '../support/server.js';
import { startS3, type RunningS3 } from '../support/s3.js';
import { S3Storage, keys } from '../../server/storage/index.js';
import { CHUNK, approve, filesUnder, sendChunk, settledExtraction, sha256, uploadOk } from './media-fixtures.js';

/** What a node may keep in DATA_DIR besides user files: the database, its secrets, logs. */
const NOT_USER_FILES = /^(trainbench\.sqlite.*|secrets\.json|server\.running|node-id|pack-signing.*|logs\/.*|.*\.log)$/;

describe('media on S3 storage (s3rver)', () => {
  let s3: RunningS3;
  let s: TestServer;
  let bucket: S3Storage;
  let employee: { id: number; token: string };

  before(async () => {
    s3 = await startS3();
    s = await startTestServer({ storage: { kind: 's3', bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true } });
    bucket = new S3Storage({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true });
    employee = await s.user();
  });
  after(async () => {
    await s?.close();
    await bucket?.close();
    await s3?.close();
  });

  const storageKeyOf = async (id: number) => ((await s.server.db('media_files').where({ id }).first('storage_key')) as { storage_key: string }).storage_key;

  async function previewUrl(id: number): Promise<string> {
    await approve(s.api, s.adminToken, id);
    const preview = await s.api.get(`/api/media/preview/${id}`, { token: employee.token });
    assert.equal(preview.status, 200, preview.text);
    return s.url + preview.body.data.preview_url;
  }

  test('a direct upload is stored in the bucket and served byte-exact, with its Chinese name in filename*', async () => {
    const data = crypto.randomBytes(300_000);
    const id = await uploadOk(s.api, employee.token, '培训资料 第一讲.mp4', data);
    const stored = await bucket.stat(keys.media(await storageKeyOf(id)));
    assert.equal(stored?.size, data.length);
    const res = await fetch(await previewUrl(id));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'video/mp4');
    assert.equal(sha256(new Uint8Array(await res.arrayBuffer())), sha256(data));
    const disposition = res.headers.get('content-disposition') ?? '';
    assert.match(disposition, /^inline; filename="[^"]*"; filename\*=UTF-8''/);
    assert.equal(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)![1]!), '培训资料 第一讲.mp4');
  });

  test('Range, suffix, 416, If-None-Match → 304, If-Range with another ETag → the whole file', async () => {
    const data = crypto.randomBytes(1000);
    const url = await previewUrl(await uploadOk(s.api, employee.token, 'clip.mp4', data));
    const first = await fetch(url, { headers: { range: 'bytes=0-9' } });
    assert.deepEqual([first.status, first.headers.get('content-range')], [206, 'bytes 0-9/1000']);
    assert.deepEqual(new Uint8Array(await first.arrayBuffer()), new Uint8Array(data.subarray(0, 10)));
    const single = await fetch(url, { headers: { range: 'bytes=0-0' } });
    assert.deepEqual([single.status, (await single.arrayBuffer()).byteLength], [206, 1]);
    const suffix = await fetch(url, { headers: { range: 'bytes=-5' } });
    assert.deepEqual(new Uint8Array(await suffix.arrayBuffer()), new Uint8Array(data.subarray(995)));
    const beyond = await fetch(url, { headers: { range: 'bytes=1000-' } });
    assert.deepEqual([beyond.status, beyond.headers.get('content-range')], [416, 'bytes */1000']);
    assert.equal((await beyond.json()).error, 'media.range_not_satisfiable');
    const etag = first.headers.get('etag')!;
    assert.ok(etag);
    const cached = await fetch(url, { headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
    assert.equal((await cached.arrayBuffer()).byteLength, 0);
    const stillSame = await fetch(url, { headers: { range: 'bytes=10-19', 'if-range': etag } });
    assert.equal(stillSame.status, 206);
    await stillSame.arrayBuffer();
    const changed = await fetch(url, { headers: { range: 'bytes=10-19', 'if-range': '"another"' } });
    assert.deepEqual([changed.status, (await changed.arrayBuffer()).byteLength], [200, 1000]);
  });

  test('a chunked upload is an S3 multipart upload: chunks out of order and repeated, raw and multipart, complete twice', async () => {
    const data = crypto.randomBytes(3 * CHUNK + 4321);
    const init = await s.api.post('/api/media/upload/init', { token: employee.token, body: { filename: '课程视频.mp4', file_size: data.length, bind_type: 'none' } });
    assert.equal(init.status, 201, init.text);
    const { upload_id, chunk_count } = init.body.data as { upload_id: string; chunk_count: number };
    assert.equal(chunk_count, 4);
    const chunkOf = (i: number) => data.subarray(i * CHUNK, Math.min(data.length, (i + 1) * CHUNK));
    const raw = (i: number) =>
      s.api.post(`/api/media/upload/chunk?upload_id=${upload_id}&chunk_index=${i}`, { token: employee.token, raw: chunkOf(i), headers: { 'content-type': 'application/octet-stream' } });
    for (const i of [3, 1]) assert.equal((await sendChunk(s.api, employee.token, upload_id, i, chunkOf(i))).status, 200);
    assert.equal((await raw(0)).status, 200);
    assert.equal((await raw(1)).status, 200, 'a chunk sent again replaces its part');
    const status = await s.api.get(`/api/media/upload/${upload_id}`, { token: employee.token });
    assert.deepEqual([status.body.data.received, status.body.data.missing], [[0, 1, 3], [2]]);
    const early = await s.api.post('/api/media/upload/complete', { token: employee.token, body: { upload_id } });
    assert.deepEqual([early.status, early.body.error], [400, 'media.chunks_missing']);
    assert.equal((await sendChunk(s.api, employee.token, upload_id, 2, chunkOf(2))).status, 200);
    const etags = (await s.server.db('upload_chunks').where({ upload_id }).orderBy('chunk_index').pluck('etag')) as string[];
    assert.equal(etags.length, 4);
    assert.ok(etags.every((etag) => /^[0-9a-f]{32}$/.test(etag)), 'each chunk row keeps its part ETag');
    const done = await s.api.post('/api/media/upload/complete', { token: employee.token, body: { upload_id } });
    assert.equal(done.status, 201, done.text);
    const again = await s.api.post('/api/media/upload/complete', { token: employee.token, body: { upload_id } });
    assert.deepEqual([again.status, again.body.data.id], [200, done.body.data.id]);
    assert.equal((await bucket.stat(keys.media(await storageKeyOf(done.body.data.id))))?.size, data.length);
    const res = await fetch(await previewUrl(done.body.data.id));
    assert.equal(sha256(new Uint8Array(await res.arrayBuffer())), sha256(data));
  });

  test('an empty chunked upload completes', async () => {
    const init = await s.api.post('/api/media/upload/init', { token: employee.token, body: { filename: 'empty.txt', file_size: 0, bind_type: 'none' } });
    const done = await s.api.post('/api/media/upload/complete', { token: employee.token, body: { upload_id: init.body.data.upload_id } });
    assert.equal(done.status, 201, done.text);
    assert.equal(done.body.data.size, 0);
  });

  test('text is extracted from a temporary copy of the stored file', async () => {
    const id = await uploadOk(s.api, employee.token, 'notes.md', new TextEncoder().encode('# 理财产品\n\n风险等级 R3 的产品说明。'));
    await approve(s.api, s.adminToken, id);
    const settled = await settledExtraction(s.api, s.adminToken, id);
    assert.equal(settled.extraction.state, 'done', JSON.stringify(settled.extraction));
    assert.ok(settled.extraction.chunks >= 1);
  });

  test('no user file is left on the node: DATA_DIR holds only the database, secrets and empty folders', async () => {
    const left = (await filesUnder(s.dataDir)).filter((file) => !NOT_USER_FILES.test(file));
    assert.deepEqual(left, []);
  });
});
