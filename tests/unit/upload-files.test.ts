// UploadFiles on a real folder (and the pool of chunk buffers): chunks written at their offsets from every kind of source, concurrently and out of
// order, with background flushes, an idle close and reopen, and nothing left behind by remove.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { UploadFiles } from '../../server/media/media.assembly.js';
import { BufferPool } from '../../server/media/media.buffers.js';
import { ALIGNMENT, directWritable } from '../../server/media/media.direct-io.js';
import { cachedBytes, takesDirectWrites } from '../support/page-cache.js';
import { mediaDirs, partialFilePath, uploadDir, type MediaDirs } from '../../server/media/media.storage.js';

const PIECE = 64 * 1024;
let root = '';
let dirs: MediaDirs;

before(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'upload-files-'));
  dirs = mediaDirs(root);
});
after(() => fs.rm(root, { recursive: true, force: true }));

test('chunks from memory, a file and a stream land at their offsets, in any order and at once', async () => {
  const files = new UploadFiles(dirs, { flushEveryBytes: PIECE });
  const data = crypto.randomBytes(6 * PIECE + 123);
  const pieces = Array.from({ length: 7 }, (_, i) => data.subarray(i * PIECE, (i + 1) * PIECE));
  await files.create('u1');
  const spare = path.join(root, 'piece-on-disk');
  await fs.writeFile(spare, pieces[3]!);
  const written = await Promise.all(
    [6, 0, 3, 5, 1, 4, 2].map((i) => {
      const source =
        i === 3 ? ({ kind: 'file', path: spare } as const) : i % 2 ? ({ kind: 'stream', body: Readable.from([pieces[i]!.subarray(0, 100), pieces[i]!.subarray(100)]) } as const) : ({ kind: 'memory', bytes: pieces[i]! } as const);
      return files.writeAt('u1', source, i * PIECE);
    }),
  );
  assert.deepEqual(written, [123, PIECE, PIECE, PIECE, PIECE, PIECE, PIECE]);
  const merged = await files.finish('u1', data.length);
  assert.equal(merged, partialFilePath(dirs, 'u1'));
  assert.equal(files.openCount, 0, 'finish closes the file');
  assert.ok((await fs.readFile(merged)).equals(data));
  await files.remove('u1');
  await assert.rejects(fs.stat(uploadDir(dirs, 'u1')), { code: 'ENOENT' });
});

test('a file left idle is closed, and the next chunk opens it again without losing what it holds', async () => {
  const files = new UploadFiles(dirs, { idleCloseMs: 1 });
  const data = crypto.randomBytes(2 * PIECE);
  await files.create('u2');
  await files.writeAt('u2', { kind: 'memory', bytes: data.subarray(PIECE) }, PIECE);
  for (let poll = 0; poll < 1000 && files.openCount > 0; poll++) await delay(5);
  assert.equal(files.openCount, 0, 'closed once idle');
  await files.writeAt('u2', { kind: 'memory', bytes: data.subarray(0, PIECE) }, 0);
  assert.ok((await fs.readFile(await files.finish('u2', data.length))).equals(data));
});

test('finish refuses a file of the wrong size; closeAll closes every open file', async () => {
  const files = new UploadFiles(dirs);
  await files.create('u3');
  await files.writeAt('u3', { kind: 'memory', bytes: Buffer.from('abc') }, 0);
  await assert.rejects(files.finish('u3', 4), { status: 400, code: 'media.size_mismatch' });
  await files.writeAt('u3', { kind: 'memory', bytes: Buffer.from('d') }, 3);
  assert.equal(files.openCount, 1);
  await files.closeAll();
  assert.equal(files.openCount, 0);
  assert.equal(await fs.readFile(partialFilePath(dirs, 'u3'), 'utf8'), 'abcd');
});

test('onDurable hears of every flush: in the background as data piles up, and when the file is closed idle or at stop', async () => {
  const heard: [string, string][] = [];
  const files = new UploadFiles(dirs, { flushEveryBytes: PIECE, idleCloseMs: 1 });
  files.onDurable = async (uploadId, writtenBefore) => void heard.push([uploadId, writtenBefore]);
  await files.create('u4');
  const before = new Date().toISOString();
  await files.writeAt('u4', { kind: 'memory', bytes: crypto.randomBytes(PIECE) }, 0);
  for (let poll = 0; poll < 1000 && heard.length < 2; poll++) await delay(5);
  assert.ok(heard.length >= 2, `a background flush and the idle close reported (${heard.length})`);
  assert.ok(heard.every(([id, at]) => id === 'u4' && at >= before));
  await files.create('u5');
  await files.writeAt('u5', { kind: 'memory', bytes: Buffer.from('x') }, 0);
  await files.closeAll();
  assert.ok(heard.some(([id]) => id === 'u5'), 'the stop reported u5');
});

test('the chunk buffer pool reuses its buffers, lends no more than its maximum, and lets them go once all are back and idle', async () => {
  const pool = new BufferPool(1024, 2, { idleMs: 20 });
  const first = (await pool.acquire())!;
  const second = (await pool.acquire())!;
  assert.equal(await pool.acquire(), undefined, 'a third chunk goes through a file');
  pool.release(first);
  assert.equal(await pool.acquire(), first, 'a buffer given back is lent again');
  pool.release(first);
  await delay(60);
  assert.equal(pool.allocated, 2, 'nothing goes while a buffer is still lent');
  pool.release(second);
  await delay(60);
  assert.equal(pool.allocated, 0, 'all back and idle: the pool holds none');
  assert.notEqual(await pool.acquire(), first, 'the next chunk gets a new buffer');
});

test('whole chunks in buffers from allocateBuffer are written around the page cache; the rest goes through it', async (t) => {
  if (!(await takesDirectWrites(dirs.chunks))) return t.skip('no O_DIRECT on this file system');
  const files = new UploadFiles(dirs);
  const buffers = await Promise.all([files.allocateBuffer(PIECE), files.allocateBuffer(PIECE)]);
  assert.ok(buffers.every((buffer) => buffer.length === PIECE && directWritable(buffer, 0)), 'the buffers are aligned');
  const data = crypto.randomBytes(3 * PIECE + 100);
  await files.create('u6');
  // Out of order, the last (short) chunk first; the first chunk from a plain buffer, which is not aligned.
  await files.writeAt('u6', { kind: 'memory', bytes: data.subarray(3 * PIECE) }, 3 * PIECE);
  for (const index of [2, 1]) {
    const buffer = buffers[index - 1]!;
    data.copy(buffer, 0, index * PIECE, (index + 1) * PIECE);
    await files.writeAt('u6', { kind: 'memory', bytes: buffer }, index * PIECE);
  }
  await files.writeAt('u6', { kind: 'memory', bytes: Buffer.from(data.subarray(0, PIECE)) }, 0);
  const merged = await files.finish('u6', data.length);
  const cached = await cachedBytes(merged);
  assert.ok(cached <= PIECE + ALIGNMENT, `only the chunks written through the cache are in it (${cached} bytes)`);
  assert.ok((await fs.readFile(merged)).equals(data));
  await files.closeAll();
  await files.remove('u6');
});
