// One contract for both storage implementations: a folder, and an S3 bucket on s3rver started here on loopback.
// Whatever a caller relies on (atomic puts, ranges, stat, list by prefix, delete, copy, multipart with parts in any
// order and sent twice, a local copy for programs that need a file) must hold for both.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { KnowledgeFolderStorage, LocalStorage, ObjectCache, PrefixedStorage, S3Storage, isNotFound, sha256OfObject, type Storage } from '../../server/storage/index.js';
import { startS3, type RunningS3 } from '../support/s3.js';

const MiB = 1024 * 1024;
const PART = 5 * MiB;

async function bytesOf(stream: Readable): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

async function keysUnder(storage: Storage, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of storage.list(prefix)) found.push(object.key);
  return found.sort();
}

function contract(name: string, open: () => Promise<{ storage: Storage; close(): Promise<void> }>) {
  describe(name, () => {
    let storage: Storage;
    let close: () => Promise<void>;
    before(async () => ({ storage, close } = await open()));
    after(() => close());

    test('put then get returns the same bytes; stat gives size, etag and mtime', async () => {
      const data = crypto.randomBytes(100_000);
      const put = await storage.put('media/files/abc', data);
      assert.equal(put.size, data.length);
      assert.ok(put.etag.length > 0);
      assert.deepEqual(await bytesOf(await storage.get('media/files/abc')), data);
      const stat = await storage.stat('media/files/abc');
      assert.equal(stat?.size, data.length);
      assert.equal(stat?.etag, put.etag);
      assert.ok(stat!.mtime instanceof Date && stat!.mtime.getTime() > 0);
    });

    test('a stream body, a string and an empty body are stored', async () => {
      const data = crypto.randomBytes(3 * MiB + 7);
      await storage.put('s/stream', Readable.from([data.subarray(0, MiB), data.subarray(MiB)]));
      assert.deepEqual(await bytesOf(await storage.get('s/stream')), data);
      await storage.put('s/text', '你好, world');
      assert.equal((await bytesOf(await storage.get('s/text'))).toString('utf8'), '你好, world');
      await storage.put('s/empty', Buffer.alloc(0));
      assert.equal((await storage.stat('s/empty'))?.size, 0);
      assert.equal((await bytesOf(await storage.get('s/empty'))).length, 0);
    });

    test('putting again replaces the object and changes its etag', async () => {
      const first = await storage.put('r/obj', 'first version');
      const second = await storage.put('r/obj', 'the second, longer version');
      assert.notEqual(first.etag, second.etag);
      assert.equal((await bytesOf(await storage.get('r/obj'))).toString(), 'the second, longer version');
    });

    test('ranged reads: start-end inclusive, to the end, a single byte', async () => {
      const data = crypto.randomBytes(1_000_000);
      await storage.put('range/obj', data);
      assert.deepEqual(await bytesOf(await storage.get('range/obj', { start: 10, end: 19 })), data.subarray(10, 20));
      assert.deepEqual(await bytesOf(await storage.get('range/obj', { start: 999_000, end: 999_999 })), data.subarray(999_000));
      assert.deepEqual(await bytesOf(await storage.get('range/obj', { start: 0, end: 0 })), data.subarray(0, 1));
    });

    test('a missing object: get throws StorageNotFound, stat is undefined, delete is no error', async () => {
      await assert.rejects(storage.get('nothing/here'), (err) => isNotFound(err));
      assert.equal(await storage.stat('nothing/here'), undefined);
      await storage.delete('nothing/here');
      await assert.rejects(storage.withLocalCopy('nothing/here', async () => 1), (err) => isNotFound(err));
    });

    test('delete removes the object', async () => {
      await storage.put('d/obj', 'x');
      await storage.delete('d/obj');
      assert.equal(await storage.stat('d/obj'), undefined);
      assert.deepEqual(await keysUnder(storage, 'd/'), []);
    });

    test('list by prefix finds nested keys and only those; deletePrefix removes them', async () => {
      for (const key of ['l/a/1', 'l/a/2', 'l/a/sub/3', 'l/ab/4', 'l/b/5']) await storage.put(key, key);
      assert.deepEqual(await keysUnder(storage, 'l/a/'), ['l/a/1', 'l/a/2', 'l/a/sub/3']);
      assert.deepEqual(await keysUnder(storage, 'l/a'), ['l/a/1', 'l/a/2', 'l/a/sub/3', 'l/ab/4']);
      const listed = [];
      for await (const object of storage.list('l/b/')) listed.push(object);
      assert.equal(listed[0]?.size, 5);
      await storage.deletePrefix('l/a/');
      assert.deepEqual(await keysUnder(storage, 'l/'), ['l/ab/4', 'l/b/5']);
    });

    test('putFile copies or moves a local file; copy duplicates an object', async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-contract-'));
      const file = path.join(dir, 'in.bin');
      const data = crypto.randomBytes(200_000);
      await fs.writeFile(file, data);
      await storage.putFile('f/copied', file);
      assert.deepEqual(await fs.readFile(file), data);
      await storage.putFile('f/moved', file, { move: true });
      await assert.rejects(fs.stat(file));
      assert.deepEqual(await bytesOf(await storage.get('f/moved')), data);
      await storage.copy('f/moved', 'f/copy of it');
      assert.deepEqual(await bytesOf(await storage.get('f/copy of it')), data);
      await fs.rm(dir, { recursive: true, force: true });
    });

    test('withLocalCopy gives a readable file with the key’s name; nothing of a temporary copy is left after', async () => {
      const data = crypto.randomBytes(50_000);
      await storage.put('audio/recordings/call.ogg', data);
      let seen = '';
      const size = await storage.withLocalCopy('audio/recordings/call.ogg', async (file) => {
        seen = file;
        assert.equal(path.extname(file), '.ogg');
        return (await fs.readFile(file)).length;
      });
      assert.equal(size, data.length);
      const isTemporary = !seen.startsWith((storage as LocalStorage).root ?? '\0');
      if (isTemporary) await assert.rejects(fs.stat(seen));
      else assert.ok((await fs.stat(seen)).isFile());
      await assert.rejects(storage.withLocalCopy('audio/recordings/call.ogg', async () => Promise.reject(new Error('program failed'))), /program failed/);
    });

    test('a node-local cache of an object: the folder’s own file in place, else one copy by sha256, fetched once and checked', async () => {
      const data = crypto.randomBytes(70_000);
      const sha = crypto.createHash('sha256').update(data).digest('hex');
      await storage.put('models/tiny.onnx', data);
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'object-cache-'));
      const cache = new ObjectCache(storage, path.join(dir, 'models'));
      const local = storage.localFile('models/tiny.onnx');
      assert.equal(await cache.present('models/tiny.onnx', sha), local, 'nothing here before the first use, except a folder’s own file');
      const first = await cache.file('models/tiny.onnx', undefined);
      assert.deepEqual(await fs.readFile(first.file), data);
      if (local) {
        assert.equal(first.file, local);
        assert.deepEqual(await fs.readdir(dir), [], 'a folder storage is read in place: no copy');
      } else {
        assert.deepEqual([first.file, first.sha256], [path.join(dir, 'models', `${sha}.onnx`), sha]);
        assert.equal(await cache.present('models/tiny.onnx', sha), first.file);
        await storage.put('models/tiny.onnx', crypto.randomBytes(10));
        assert.equal((await cache.file('models/tiny.onnx', sha)).file, first.file, 'a cached copy is used without asking the store');
        await cache.evict('models/tiny.onnx', sha);
        await assert.rejects(cache.file('models/tiny.onnx', sha), /not the recorded/, 'other bytes than recorded are refused');
        assert.deepEqual(await fs.readdir(path.join(dir, 'models')), [], 'nothing half-fetched is left');
      }
      await fs.rm(dir, { recursive: true, force: true });
    });

    test('multipart: parts in any order and sent twice make the object in part-number order', async () => {
      const data = crypto.randomBytes(2 * PART + 12_345);
      const parts = [data.subarray(0, PART), data.subarray(PART, 2 * PART), data.subarray(2 * PART)];
      const key = 'media/files/multi';
      const uploadId = await storage.multipart.create(key);
      const etags: string[] = [];
      for (const i of [2, 0, 1]) etags[i] = await storage.multipart.putPart(key, uploadId, i + 1, parts[i]!, parts[i]!.length);
      // Part 1 again, from a stream: the last copy wins, its ETag is the same for the same bytes.
      etags[0] = await storage.multipart.putPart(key, uploadId, 1, Readable.from([parts[0]!]), parts[0]!.length);
      const info = await storage.multipart.complete(key, uploadId, [3, 1, 2].map((n) => ({ partNumber: n, etag: etags[n - 1]! })));
      assert.equal(info.size, data.length);
      const stored = await sha256OfObject(storage, key);
      assert.equal(stored.sha256, crypto.createHash('sha256').update(data).digest('hex'));
      assert.equal(stored.size, data.length);
    });

    test('multipart: abort leaves no object', async () => {
      const key = 'media/files/aborted';
      const uploadId = await storage.multipart.create(key);
      await storage.multipart.putPart(key, uploadId, 1, crypto.randomBytes(1000), 1000);
      await storage.multipart.abort(key, uploadId);
      assert.equal(await storage.stat(key), undefined);
    });

    test('check answers', async () => {
      await storage.check();
    });

    test('keys that could leave the store are refused', async () => {
      for (const key of ['../x', 'a/../../x', '/abs', 'a//b', 'a\\b', '']) await assert.rejects(storage.put(key, 'x'), /Invalid storage key/);
    });
  });
}

contract('local folder', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-local-'));
  const storage = new LocalStorage(root);
  return {
    storage,
    close: async () => {
      // Nothing half-written is left beside the objects.
      const names = await fs.readdir(root, { recursive: true });
      assert.deepEqual(names.filter((n) => String(n).includes('.tmp-')), []);
      await fs.rm(root, { recursive: true, force: true });
    },
  };
});

let s3: RunningS3;
contract('S3 bucket (s3rver on loopback)', async () => {
  s3 = await startS3();
  const storage = new S3Storage({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true });
  return {
    storage,
    close: async () => {
      await storage.close();
      await s3.close();
    },
  };
});

// The knowledge sources' storages (createKnowledgeStorage): KNOWLEDGE_DIR, and the bucket's knowledge/ prefix.
contract('knowledge folder', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-knowledge-'));
  return { storage: new KnowledgeFolderStorage(root), close: () => fs.rm(root, { recursive: true, force: true }) };
});

contract('S3 bucket under a prefix', async () => {
  const bucket = await startS3();
  const inner = new S3Storage({ bucket: bucket.bucket, endpoint: bucket.endpoint, region: 'us-east-1', forcePathStyle: true });
  await inner.put('outside/of-the-prefix', 'not listed');
  const storage = new PrefixedStorage(inner, 'knowledge/');
  return {
    storage,
    close: async () => {
      const all = await keysUnder(inner, '');
      assert.ok(all.includes('outside/of-the-prefix'), 'the rest of the bucket is left alone');
      assert.deepEqual(all.filter((key) => key !== 'outside/of-the-prefix' && !key.startsWith('knowledge/')), [], 'every object of the view is under its prefix');
      await inner.close();
      await bucket.close();
    },
  };
});
