import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { seedKnowledgeSources } from '../../server/knowledge/seed.js';
import { createKnowledgeStorage, KnowledgeFolderStorage, S3Storage } from '../../server/storage/index.js';
import { startS3 } from '../support/s3.js';

test('shipped knowledge sources: copied once, updated only while unedited, never brought back once deleted', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-seed-'));
  const shipped = path.join(dir, 'resources', 'knowledge-sources');
  const target = path.join(dir, 'data', 'knowledge-sources');
  const write = async (base: string, file: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(base, file)), { recursive: true });
    await fs.writeFile(path.join(base, file), text);
  };
  const read = (file: string) => fs.readFile(path.join(target, file), 'utf8').catch(() => null);
  try {
    await write(shipped, 'intro.md', 'v1');
    await write(shipped, 'products/fund.md', 'fund v1');
    await write(shipped, 'products/bond.md', 'bond v1');
    await write(shipped, '.hidden.md', 'not a source');
    await write(target, 'own.md', 'an admin file');
    assert.deepEqual(await seedKnowledgeSources(shipped, new KnowledgeFolderStorage(target)), { copied: ['intro.md', 'products/bond.md', 'products/fund.md'], updated: [] });
    assert.deepEqual([await read('intro.md'), await read('products/fund.md'), await read('.hidden.md'), await read('own.md')], ['v1', 'fund v1', null, 'an admin file']);
    assert.deepEqual(await seedKnowledgeSources(shipped, new KnowledgeFolderStorage(target)), { copied: [], updated: [] }, 'nothing new: nothing done');

    await fs.writeFile(path.join(target, 'products/fund.md'), 'edited by an admin');
    await fs.rm(path.join(target, 'products/bond.md'));
    await write(shipped, 'intro.md', 'v2');
    await write(shipped, 'products/fund.md', 'fund v2');
    await write(shipped, 'products/bond.md', 'bond v2');
    await write(shipped, 'quizzes/new.md', 'new in this release');
    assert.deepEqual(await seedKnowledgeSources(shipped, new KnowledgeFolderStorage(target)), { copied: ['quizzes/new.md'], updated: ['intro.md'] });
    assert.equal(await read('intro.md'), 'v2', 'an unedited copy follows the release');
    assert.equal(await read('products/fund.md'), 'edited by an admin', 'an edit is kept');
    assert.equal(await read('products/bond.md'), null, 'a deleted source stays deleted');
    assert.deepEqual(await seedKnowledgeSources(shipped, new KnowledgeFolderStorage(target)), { copied: [], updated: [] });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('a file already in the knowledge folder under a shipped name is left as it is', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-seed-'));
  try {
    await fs.mkdir(path.join(dir, 'shipped'));
    await fs.mkdir(path.join(dir, 'target'));
    await fs.writeFile(path.join(dir, 'shipped', 'intro.md'), 'shipped');
    await fs.writeFile(path.join(dir, 'target', 'intro.md'), 'there before');
    assert.deepEqual(await seedKnowledgeSources(path.join(dir, 'shipped'), new KnowledgeFolderStorage(path.join(dir, 'target'))), { copied: [], updated: [] });
    assert.equal(await fs.readFile(path.join(dir, 'target', 'intro.md'), 'utf8'), 'there before');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('on S3 the shipped sources go into the bucket’s knowledge/ prefix, once', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-seed-'));
  const s3 = await startS3();
  const main = new S3Storage({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true });
  const target = createKnowledgeStorage(main, path.join(dir, 'unused-knowledge-dir'));
  const text = async (key: string) => {
    const pieces: Buffer[] = [];
    for await (const piece of await main.get(key)) pieces.push(piece as Buffer);
    return Buffer.concat(pieces).toString('utf8');
  };
  try {
    await fs.mkdir(path.join(dir, 'shipped', 'products'), { recursive: true });
    await fs.writeFile(path.join(dir, 'shipped', 'intro.md'), 'v1');
    await fs.writeFile(path.join(dir, 'shipped', 'products', 'fund.md'), 'fund v1');
    assert.deepEqual(await seedKnowledgeSources(path.join(dir, 'shipped'), target), { copied: ['intro.md', 'products/fund.md'], updated: [] });
    assert.deepEqual([await text('knowledge/intro.md'), await text('knowledge/products/fund.md')], ['v1', 'fund v1']);
    assert.ok(await main.stat('knowledge/.shipped.json'));
    await main.delete('knowledge/products/fund.md');
    await fs.writeFile(path.join(dir, 'shipped', 'intro.md'), 'v2');
    assert.deepEqual(await seedKnowledgeSources(path.join(dir, 'shipped'), target), { copied: [], updated: ['intro.md'] });
    assert.equal(await main.stat('knowledge/products/fund.md'), undefined, 'a deleted source stays deleted');
    await assert.rejects(fs.access(path.join(dir, 'unused-knowledge-dir')), 'nothing on the disk');
  } finally {
    await main.close();
    await s3.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
});
