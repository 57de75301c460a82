// `npm run storage:migrate`, run as a real process against a DATA_DIR and s3rver: a dry run copies nothing, a run
// copies the user files (not the database, secrets or uploads in progress), a second run copies nothing, and a file
// that differs from its copy (same size, other bytes) is copied again.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { S3Storage } from '../../server/storage/index.js';
import { startS3, type RunningS3 } from '../support/s3.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
let s3: RunningS3;
let bucket: S3Storage;
let dataDir: string;

const USER_FILES = {
  'media/files/0123456789abcdef0123456789abcdef': crypto.randomBytes(70 * 1024 * 1024 + 3),
  'media/files/fedcba9876543210fedcba9876543210': crypto.randomBytes(1000),
  'audio/recordings/3b241101-e2bb-4255-8caf-4136c566a962.ogg': crypto.randomBytes(5000),
};
const NOT_MIGRATED = ['trainbench.sqlite', 'secrets.json', 'media/chunks/5c0c0c5e-0000-4000-8000-000000000000/file.part', 'logs/server.log'];

function migrate(args: string[] = [], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/storage/migrate-cli.ts', ...args], { cwd: root, env: { ...process.env, ...s3.env, DATA_DIR: dataDir, KNOWLEDGE_DIR: '', ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

async function bucketKeys(): Promise<string[]> {
  const found: string[] = [];
  for await (const object of bucket.list('')) found.push(object.key);
  return found.sort();
}

before(async () => {
  s3 = await startS3();
  bucket = new S3Storage({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-migrate-'));
  for (const [key, bytes] of Object.entries(USER_FILES)) {
    await fs.mkdir(path.dirname(path.join(dataDir, key)), { recursive: true });
    await fs.writeFile(path.join(dataDir, key), bytes);
  }
  for (const name of NOT_MIGRATED) {
    await fs.mkdir(path.dirname(path.join(dataDir, name)), { recursive: true });
    await fs.writeFile(path.join(dataDir, name), 'not a user file');
  }
});
after(async () => {
  await bucket?.close();
  await s3?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

test('a dry run lists what it would copy and copies nothing', async () => {
  const { code, out } = await migrate(['--dry-run']);
  assert.equal(code, 0, out);
  assert.match(out, /would copy 3 file\(s\)/);
  assert.deepEqual(await bucketKeys(), []);
});

test('a run copies the user files, byte-exact; a second run copies nothing', async () => {
  const first = await migrate();
  assert.equal(first.code, 0, first.out);
  assert.match(first.out, /copied 3 file\(s\).*0 already in the bucket; 0 failed/s);
  assert.deepEqual(await bucketKeys(), Object.keys(USER_FILES).sort());
  for (const [key, bytes] of Object.entries(USER_FILES)) {
    const hash = crypto.createHash('sha256');
    for await (const piece of await bucket.get(key)) hash.update(piece as Buffer);
    assert.equal(hash.digest('hex'), crypto.createHash('sha256').update(bytes).digest('hex'), key);
  }
  const second = await migrate();
  assert.equal(second.code, 0, second.out);
  assert.match(second.out, /copied 0 file\(s\), 0\.0 MB; 3 already in the bucket/);
});

test('a file whose copy differs is copied again; the rest are skipped', async () => {
  const key = 'media/files/fedcba9876543210fedcba9876543210';
  const changed = crypto.randomBytes(1000);
  await fs.writeFile(path.join(dataDir, key), changed);
  const { code, out } = await migrate();
  assert.equal(code, 0, out);
  assert.match(out, /copied 1 file\(s\).*2 already in the bucket/s);
  const hash = crypto.createHash('sha256');
  for await (const piece of await bucket.get(key)) hash.update(piece as Buffer);
  assert.equal(hash.digest('hex'), crypto.createHash('sha256').update(changed).digest('hex'));
});

test('with KNOWLEDGE_DIR set, its sources are copied under knowledge/, hidden files and subfolders too; a link out of it is not', async () => {
  const knowledgeDir = path.join(dataDir, '..', `${path.basename(dataDir)}-knowledge`);
  const outside = path.join(`${knowledgeDir}-outside.md`);
  try {
    await fs.mkdir(path.join(knowledgeDir, 'products'), { recursive: true });
    await fs.writeFile(path.join(knowledgeDir, 'guide.md'), '# Guide\n');
    await fs.writeFile(path.join(knowledgeDir, 'products', 'fund.md'), '# Fund\n');
    await fs.writeFile(path.join(knowledgeDir, '.shipped.json'), '{"files":{}}');
    await fs.writeFile(outside, '# Not a source of this folder\n');
    await fs.symlink(outside, path.join(knowledgeDir, 'link-out.md'));
    const { code, out } = await migrate([], { KNOWLEDGE_DIR: knowledgeDir });
    assert.equal(code, 0, out);
    assert.match(out, /copied 3 file\(s\).*3 already in the bucket/s);
    assert.deepEqual((await bucketKeys()).filter((key) => key.startsWith('knowledge/')), ['knowledge/.shipped.json', 'knowledge/guide.md', 'knowledge/products/fund.md']);
    const again = await migrate([], { KNOWLEDGE_DIR: knowledgeDir });
    assert.match(again.out, /copied 0 file\(s\).*6 already in the bucket/s);
  } finally {
    await fs.rm(knowledgeDir, { recursive: true, force: true });
    await fs.rm(outside, { force: true });
  }
});

test('without STORAGE=s3 it refuses with a message naming what to set', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/storage/migrate-cli.ts'], { cwd: root, env: { ...process.env, STORAGE: '', DATA_DIR: dataDir } });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 1);
  assert.match(out, /STORAGE=s3/);
});
