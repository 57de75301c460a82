import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.js';
import { acceptChunk, sweepUploads } from '../../server/media/media.chunked.js';
import { mediaDirs } from '../../server/media/media.storage.js';
import { mediaStore } from '../../server/media/media.store.js';
import { LocalStorage, keys } from '../../server/storage/index.js';
import { cachedBytes, takesDirectWrites } from '../support/page-cache.js';
import { CHUNK, approve, downloadSha256, filesUnder, sendChunk, sha256 } from './media-fixtures.js';

const INIT = '/api/media/upload/init';
const COMPLETE = '/api/media/upload/complete';

describe('media: chunked upload', () => {
  let s: TestServer;
  let employee: { id: number; token: string };
  let other: { id: number; token: string };
  const as = (token: string) => ({ token });

  before(async () => {
    s = await startTestServer();
    employee = await s.user();
    other = await s.user();
  });
  after(() => s?.close());

  async function init(fileSize: number, filename = 'video.bin', token = employee.token, route = INIT) {
    const res = await s.api.post(route, { token, body: { filename, file_size: fileSize, bind_type: 'none' } });
    assert.equal(res.status, 201, res.text);
    return res.body.data as { upload_id: string; chunk_size: number; chunk_count: number };
  }

  const chunkOf = (data: Uint8Array, index: number) => data.subarray(index * CHUNK, Math.min(data.length, (index + 1) * CHUNK));

  async function sendAll(uploadId: string, data: Uint8Array, order: number[]) {
    for (const index of order) {
      const res = await sendChunk(s.api, employee.token, uploadId, index, chunkOf(data, index));
      assert.equal(res.status, 200, res.text);
    }
  }

  /** Approves the media and downloads it through its preview URL. */
  async function servedSha256(mediaId: number): Promise<{ sha256: string; bytes: number }> {
    await approve(s.api, s.adminToken, mediaId);
    const preview = await s.api.get(`/api/media/preview/${mediaId}`, as(employee.token));
    const { status, ...file } = await downloadSha256(s.url, preview.body.data.preview_url);
    assert.equal(status, 200);
    return file;
  }

  test('init answers the spec shape: chunk_size 5242880, chunk_count = ceil(size / chunk_size)', async () => {
    for (const [size, count] of [[0, 0], [1, 1], [CHUNK, 1], [CHUNK + 1, 2], [10 * CHUNK, 10]] as const) {
      const session = await init(size);
      assert.match(session.upload_id, /^[0-9a-f-]{36}$/);
      assert.deepEqual([session.chunk_size, session.chunk_count], [CHUNK, count], `size ${size}`);
    }
  });

  test('init validation: 400 on a bad body or binding, 413 over the chunked limit, 401 without a token', async () => {
    const bad = [{}, { filename: 'a.mp4' }, { filename: 'a.mp4', file_size: -1 }, { filename: 'a.mp4', file_size: 1.5 }, { filename: '', file_size: 1 },
      { filename: 'a.mp4', file_size: 1, bind_type: 'product', bind_id: 999999 }, { filename: 'a.mp4', file_size: 1, bind_type: 'course' }];
    for (const body of bad) {
      const res = await s.api.post(INIT, { token: employee.token, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'validation_failed');
    }
    const huge = await s.api.post(INIT, { token: employee.token, body: { filename: 'a.mp4', file_size: 30 * 1024 ** 3 } });
    assert.equal(huge.status, 413);
    assert.equal((await s.api.post(INIT, { body: { filename: 'a.mp4', file_size: 1 } })).status, 401);
  });

  test('sizes 0, 1, exactly 5 MB and 5 MB + 1 come back byte for byte', async () => {
    for (const size of [0, 1, CHUNK, CHUNK + 1]) {
      const data = crypto.randomBytes(size);
      const session = await init(size, `size-${size}.bin`);
      await sendAll(session.upload_id, data, [...Array(session.chunk_count).keys()].reverse());
      const done = await s.api.post(COMPLETE, { token: employee.token, body: { upload_id: session.upload_id } });
      assert.equal(done.status, 201, done.text);
      assert.deepEqual([done.body.data.size, done.body.data.status, done.body.data.filename], [size, 'pending', `size-${size}.bin`]);
      assert.deepEqual(await servedSha256(done.body.data.id), { sha256: sha256(data), bytes: size }, `size ${size}`);
    }
  });

  test('a 120 MB file sent out of order, with chunks repeated, is merged byte for byte', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'media-120-'));
    try {
      const size = 120 * 1024 * 1024 + 12345;
      const source = path.join(dir, 'source.bin');
      const hash = crypto.createHash('sha256');
      const out = await fs.open(source, 'w');
      for (let written = 0; written < size; ) {
        const block = crypto.randomBytes(Math.min(8 * 1024 * 1024, size - written));
        hash.update(block);
        await out.write(block);
        written += block.length;
      }
      await out.close();
      const expected = hash.digest('hex');
      const session = await init(size, 'training.mp4');
      assert.equal(session.chunk_count, 25);
      const order = [...Array(session.chunk_count).keys()].sort((a, b) => ((a * 7) % 25) - ((b * 7) % 25));
      const input = await fs.open(source, 'r');
      const send = async (index: number) => {
        const buffer = Buffer.alloc(Math.min(CHUNK, size - index * CHUNK));
        await input.read(buffer, 0, buffer.length, index * CHUNK);
        const res = await sendChunk(s.api, employee.token, session.upload_id, index, buffer);
        assert.equal(res.status, 200, res.text);
        return res.body.data;
      };
      try {
        for (let i = 0; i < order.length; i += 2) await Promise.all(order.slice(i, i + 2).map(send));
        const repeated = await send(order[3]!);
        assert.equal(repeated.received_count, 25, 'a re-sent chunk is counted once');
      } finally {
        await input.close();
      }
      const done = await s.api.post(COMPLETE, { token: employee.token, body: { upload_id: session.upload_id } });
      assert.equal(done.status, 201, done.text);
      assert.equal(done.body.data.kind, 'video');
      assert.deepEqual(await servedSha256(done.body.data.id), { sha256: expected, bytes: size });
      assert.deepEqual(await filesUnder(path.join(mediaDirs(s.dataDir).chunks, session.upload_id)), [], 'the upload folder is gone once merged');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('wrong index or size is a 400; complete with chunks missing is a 400 listing them', async () => {
    const data = crypto.randomBytes(2 * CHUNK + 100);
    const { upload_id } = await init(data.length, 'three.bin');
    const cases: [number | string, Uint8Array, number, string][] = [
      [3, chunkOf(data, 2), 400, 'media.chunk_out_of_range'],
      [-1, chunkOf(data, 0), 400, 'validation_failed'],
      ['one', chunkOf(data, 0), 400, 'validation_failed'],
      [0, chunkOf(data, 0).subarray(1), 400, 'media.chunk_size_mismatch'],
      [2, data.subarray(2 * CHUNK, 2 * CHUNK + 99), 400, 'media.chunk_size_mismatch'],
      [0, crypto.randomBytes(CHUNK + 1), 400, 'media.chunk_size_mismatch'],
    ];
    for (const [index, chunk, status, error] of cases) {
      const res = await sendChunk(s.api, employee.token, upload_id, index, chunk);
      assert.deepEqual([res.status, res.body.error], [status, error], `index ${index}, ${chunk.length} bytes`);
    }
    await sendAll(upload_id, data, [1]);
    const incomplete = await s.api.post(COMPLETE, { token: employee.token, body: { upload_id } });
    assert.equal(incomplete.status, 400);
    assert.equal(incomplete.body.error, 'media.chunks_missing');
    assert.deepEqual(incomplete.body.details, { missing: [0, 2] });
    assert.match(incomplete.body.message, /0, 2/);
    const chunkForm = (files: number) => {
      const f = new FormData();
      f.append('upload_id', upload_id);
      f.append('chunk_index', '0');
      for (let i = 0; i < files; i++) f.append(i ? `extra${i}` : 'file', new Blob([data.subarray(0, 100)]), 'chunk');
      return f;
    };
    assert.equal((await s.api.post('/api/media/upload/chunk', { token: employee.token, form: chunkForm(0) })).status, 400, 'no file');
    const twoFiles = await s.api.post('/api/media/upload/chunk', { token: employee.token, form: chunkForm(2) });
    assert.deepEqual([twoFiles.status, twoFiles.body.error], [400, 'bad_request'], twoFiles.text);
    assert.match(twoFiles.body.message, /exactly one file/);
    assert.equal((await s.api.post(COMPLETE, { token: employee.token, body: {} })).status, 400);
  });

  test('uploads are per user: another user, an unknown or a malformed id is a 404', async () => {
    const data = crypto.randomBytes(10);
    const { upload_id } = await init(data.length, 'private.bin');
    assert.equal((await s.api.get(`/api/media/upload/${upload_id}`, as(other.token))).status, 404);
    assert.equal((await sendChunk(s.api, other.token, upload_id, 0, data)).status, 404);
    assert.equal((await s.api.post(COMPLETE, { token: other.token, body: { upload_id } })).status, 404);
    assert.equal((await s.api.get(`/api/media/upload/${crypto.randomUUID()}`, as(employee.token))).status, 404);
    assert.equal((await s.api.get('/api/media/upload/not-an-upload-id', as(employee.token))).status, 404);
    assert.equal((await s.api.get(`/api/media/upload/${upload_id}`)).status, 401);
    assert.equal((await sendChunk(s.api, '', upload_id, 0, data)).status, 401);
    assert.equal((await s.api.post(COMPLETE, { body: { upload_id } })).status, 401);
  });

  test('resume after a restart of the server mid-upload', async () => {
    const data = crypto.randomBytes(3 * CHUNK - 7);
    const { upload_id } = await init(data.length, 'resumed.mp4');
    await sendAll(upload_id, data, [2, 0]);
    await s.restart();
    const state = await s.api.get(`/api/media/upload/${upload_id}`, as(employee.token));
    assert.equal(state.status, 200, state.text);
    assert.deepEqual([state.body.data.status, state.body.data.received, state.body.data.missing], ['open', [0, 2], [1]]);
    assert.deepEqual([state.body.data.file_size, state.body.data.filename, state.body.data.chunk_count], [data.length, 'resumed.mp4', 3]);
    await sendAll(upload_id, data, [1]);
    const done = await s.api.post(COMPLETE, { token: employee.token, body: { upload_id } });
    assert.equal(done.status, 201, done.text);
    assert.deepEqual(await servedSha256(done.body.data.id), { sha256: sha256(data), bytes: data.length });
  });

  test('a chunk that went through a temporary file (all memory buffers busy) lands at its offset too', async () => {
    const data = crypto.randomBytes(CHUNK + 10);
    const { upload_id } = await init(data.length, 'via-disk.bin');
    const employeeUser = (await s.api.get('/api/auth/me', as(employee.token))).body.data;
    const temp = path.join(mediaDirs(s.dataDir).incoming, 'direct-test.chunk');
    await fs.writeFile(temp, chunkOf(data, 0));
    const accepted = await acceptChunk(s.server.db, mediaStore(new LocalStorage(s.dataDir), s.dataDir), employeeUser, upload_id, 0, { size: CHUNK, source: { kind: 'file', path: temp } });
    assert.deepEqual([accepted.chunk_index, accepted.received_count], [0, 1]);
    await fs.rm(temp);
    await sendAll(upload_id, data, [1]);
    const done = await s.api.post(COMPLETE, { token: employee.token, body: { upload_id } });
    assert.equal(done.status, 201, done.text);
    assert.deepEqual(await servedSha256(done.body.data.id), { sha256: sha256(data), bytes: data.length });
  });

  test('whole chunks are written around the page cache: a finished upload leaves at most its last chunk cached', async (t) => {
    if (!(await takesDirectWrites(mediaDirs(s.dataDir).chunks))) return t.skip('no O_DIRECT on this file system');
    const data = crypto.randomBytes(3 * CHUNK + 1000);
    const { upload_id } = await init(data.length, 'uncached.bin');
    await sendAll(upload_id, data, [0, 1, 2, 3]);
    const done = await s.api.post(COMPLETE, { token: employee.token, body: { upload_id } });
    assert.equal(done.status, 201, done.text);
    const { storage_key } = await s.server.db('media_files').where({ id: done.body.data.id }).first();
    const cached = await cachedBytes(new LocalStorage(s.dataDir).pathOf(keys.media(storage_key)));
    assert.ok(cached <= 4096, `${cached} bytes of the file are cached`);
    assert.deepEqual(await servedSha256(done.body.data.id), { sha256: sha256(data), bytes: data.length });
  });

  test('a chunk is written behind its answer: a write that fails is reported to the next request, and the chunk is missing again', async () => {
    const data = crypto.randomBytes(2 * CHUNK);
    const { upload_id } = await init(data.length, 'unwritable.bin');
    // The file being assembled cannot be opened for writing (a directory stands in its place).
    const part = path.join(mediaDirs(s.dataDir).chunks, upload_id, 'file.part');
    await fs.rm(part);
    await fs.mkdir(part);
    const first = await sendChunk(s.api, employee.token, upload_id, 0, chunkOf(data, 0));
    assert.deepEqual([first.status, first.body.data.received_count], [200, 1], first.text);
    const next = await sendChunk(s.api, employee.token, upload_id, 1, chunkOf(data, 1));
    assert.deepEqual([next.status, next.body.error, next.body.details], [500, 'media.chunk_not_stored', { chunk_index: 0 }], next.text);
    const state = (await s.api.get(`/api/media/upload/${upload_id}`, as(employee.token))).body.data;
    assert.deepEqual([state.received, state.missing], [[], [0, 1]]);

    await fs.rmdir(part);
    await sendAll(upload_id, data, [0, 1]);
    const done = await s.api.post(COMPLETE, { token: employee.token, body: { upload_id } });
    assert.equal(done.status, 201, done.text);
    assert.deepEqual(await servedSha256(done.body.data.id), { sha256: sha256(data), bytes: data.length });
  });

  test('a chunk may also be sent as the raw body (upload_id and chunk_index in the query)', async () => {
    const data = crypto.randomBytes(2 * CHUNK + 77);
    const { upload_id } = await init(data.length, 'raw.bin');
    const raw = (index: number | string, bytes: Uint8Array, query = `upload_id=${upload_id}&chunk_index=${index}`, token = employee.token) =>
      s.api.post(`/api/media/upload/chunk?${query}`, { token, raw: bytes, headers: { 'content-type': 'application/octet-stream' } });
    for (const index of [2, 0, 1, 1]) {
      const res = await raw(index, chunkOf(data, index));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.chunk_index, index);
    }
    const short = await raw(0, chunkOf(data, 0).subarray(5));
    assert.deepEqual([short.status, short.body.error], [400, 'media.chunk_size_mismatch']);
    assert.deepEqual((await s.api.get(`/api/media/upload/${upload_id}`, as(employee.token))).body.data.received, [0, 1, 2], 'a copy refused up front leaves the earlier one');
    assert.equal((await raw(3, chunkOf(data, 2))).body.error, 'media.chunk_out_of_range');
    assert.equal((await raw(0, chunkOf(data, 0), `chunk_index=0`)).status, 400, 'upload_id missing');
    assert.equal((await raw(0, chunkOf(data, 0), undefined, '')).status, 401);
    assert.equal((await raw(0, chunkOf(data, 0), undefined, other.token)).status, 404);
    assert.equal((await raw(0, chunkOf(data, 0))).status, 200);

    // A copy cut off half-way is read into memory and never reaches the file: the earlier copy stays listed and
    // intact, and the chunk can be sent again at once.
    const cutOff = http.request(`${s.url}/api/media/upload/chunk?upload_id=${upload_id}&chunk_index=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${employee.token}`, 'content-type': 'application/octet-stream', 'content-length': CHUNK },
    });
    cutOff.on('error', () => undefined);
    cutOff.write(chunkOf(data, 1).subarray(0, CHUNK / 2));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual((await s.api.get(`/api/media/upload/${upload_id}`, as(employee.token))).body.data.received, [0, 1, 2], 'a copy being received does not unlist the earlier one');
    cutOff.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual((await s.api.get(`/api/media/upload/${upload_id}`, as(employee.token))).body.data.received, [0, 1, 2], 'a cut-off copy changes nothing');
    assert.equal((await raw(1, crypto.randomBytes(CHUNK))).status, 200, 'the chunk can be sent again');
    assert.equal((await raw(1, chunkOf(data, 1))).status, 200, 'the last full copy wins');
    const done = await s.api.post(COMPLETE, { token: employee.token, body: { upload_id } });
    assert.equal(done.status, 201, done.text);
    assert.deepEqual(await servedSha256(done.body.data.id), { sha256: sha256(data), bytes: data.length });
  });

  test('complete is idempotent; a completed upload takes no more chunks', async () => {
    const data = crypto.randomBytes(100);
    const { upload_id } = await init(data.length);
    await sendAll(upload_id, data, [0]);
    const first = await s.api.post(COMPLETE, { token: employee.token, body: { upload_id } });
    const second = await s.api.post(COMPLETE, { token: employee.token, body: { upload_id } });
    assert.deepEqual([first.status, second.status], [201, 200]);
    assert.equal(second.body.data.id, first.body.data.id);
    const late = await sendChunk(s.api, employee.token, upload_id, 0, data);
    assert.deepEqual([late.status, late.body.error], [409, 'media.upload_busy']);
    const state = (await s.api.get(`/api/media/upload/${upload_id}`, as(employee.token))).body.data;
    assert.deepEqual([state.status, state.media_id, state.missing], ['completed', first.body.data.id, []]);
  });

  test('the hyphenated paths of the earlier baseline still work', async () => {
    const data = crypto.randomBytes(CHUNK + 3);
    const session = await init(data.length, 'legacy.bin', employee.token, '/api/media/upload-init');
    for (const index of [0, 1]) {
      const res = await sendChunk(s.api, employee.token, session.upload_id, index, chunkOf(data, index), '/api/media/upload-chunk');
      assert.equal(res.status, 200, res.text);
    }
    const done = await s.api.post('/api/media/upload-complete', { token: employee.token, body: { upload_id: session.upload_id } });
    assert.equal(done.status, 201, done.text);
    assert.deepEqual(await servedSha256(done.body.data.id), { sha256: sha256(data), bytes: data.length });
  });

  test('abandoned sessions go after upload_session_ttl_hours, chunks included', async () => {
    const setTtl = (hours: number) => s.api.put('/api/system/config', { token: s.adminToken, body: { configs: { upload_session_ttl_hours: hours } } });
    assert.equal((await setTtl(1)).status, 200);
    try {
      const dirs = mediaDirs(s.dataDir);
      const data = crypto.randomBytes(10);
      const stale = await init(data.length, 'stale.bin');
      const swept = await init(data.length, 'swept.bin');
      const fresh = await init(data.length, 'fresh.bin');
      for (const id of [stale.upload_id, swept.upload_id, fresh.upload_id]) await sendAll(id, data, [0]);
      const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000).toISOString();
      await s.server.db('upload_sessions').whereIn('id', [stale.upload_id, swept.upload_id]).update({ updated_at: twoHoursAgo });

      const gone = await s.api.get(`/api/media/upload/${stale.upload_id}`, as(employee.token));
      assert.equal(gone.status, 404);
      assert.equal((await sendChunk(s.api, employee.token, stale.upload_id, 0, data)).status, 404);
      assert.equal(await sweepUploads(s.server.db, mediaStore(new LocalStorage(s.dataDir), s.dataDir)), 1, 'the sweep removes the other expired session');
      const folders = await fs.readdir(dirs.chunks);
      assert.ok(folders.includes(fresh.upload_id), 'the live session keeps its chunks');
      assert.ok(!folders.includes(stale.upload_id) && !folders.includes(swept.upload_id), 'expired chunks removed');
      assert.equal(await s.server.db('upload_chunks').whereIn('upload_id', [stale.upload_id, swept.upload_id]).count({ count: '*' }).first().then((r) => Number(r?.count)), 0);
      assert.equal((await s.api.get(`/api/media/upload/${fresh.upload_id}`, as(employee.token))).status, 200);
    } finally {
      await setTtl(48);
    }
  });

  test('nothing is left in the incoming folder', async () => {
    assert.deepEqual(await filesUnder(mediaDirs(s.dataDir).incoming), []);
  });
});
