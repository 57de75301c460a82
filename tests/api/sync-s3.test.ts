// Sync with the central server on S3 storage (s3rver on loopback), the branch on its local folder: an approved media
// goes down by byte ranges served from the bucket (a cut download resumes) and is verified; a media suggested on the
// branch goes up in pieces (a cut upload resumes from the bytes stored) into the bucket, pending audit; the central
// node keeps no user file on its disk.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startNode, type Node } from '../support/sync-nodes.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { startS3, type RunningS3 } from '../support/s3.js';
import { usingPostgres } from '../support/server.js';
import { S3Storage, keys } from '../../server/storage/index.js';
import { approve, filesUnder, form, sha256, uploadOk } from './media-fixtures.js';

let s3: RunningS3;
let bucket: S3Storage;
let central: Node;
let branch: Node;
let proxy: TcpProxy;

async function ok(res: { status: number; text: string; body: { data: unknown } }, status = 200) {
  assert.equal(res.status, status, res.text);
  return res.body.data as never;
}
const run = () => branch.api.post('/api/sync/run', { token: branch.adminToken });

async function objectSha256(key: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const piece of await bucket.get(key)) hash.update(piece as Buffer);
  return hash.digest('hex');
}

describe(`sync with the central server on S3 (central on ${usingPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  before(async () => {
    s3 = await startS3();
    bucket = new S3Storage({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true });
    central = await startNode({ postgres: usingPostgres, env: s3.env });
    branch = await startNode({ postgres: false });
    proxy = await startTcpProxy(central.port);
    const { enrolment_token } = await ok(await central.api.post('/api/sync/devices', { token: central.adminToken, body: { name: 'Branch on S3' } }), 201);
    await ok(await branch.api.put('/api/sync/config', { token: branch.adminToken, body: { central_url: proxy.url, enrolment_token } }));
    await ok(await run());
  });
  after(async () => {
    await proxy?.close();
    await branch?.close();
    await central?.close();
    await bucket?.close();
    await s3?.close();
  });

  test('an approved media is served from the bucket by ranges; a cut download resumes and is verified', async () => {
    const data = crypto.randomBytes(3_000_000);
    const mediaId = await uploadOk(central.api, central.adminToken, '产品手册.pdf', data);
    await approve(central.api, central.adminToken, mediaId);
    const cut = proxy.cutNext({ request: 'GET /api/sync/files/', afterBytes: 1_000_000 });
    assert.equal((await run()).status, 502);
    await cut;
    const summary = (await ok(await run())) as { files: number };
    assert.equal(summary.files, 1);
    const resumed = proxy.requests.filter((r) => r.startsWith('GET /api/sync/files/')).at(-1)!;
    assert.ok(Number(/range: bytes=(\d+)-/i.exec(resumed)?.[1]) > 0, resumed);
    const row = (await branch.database()('media_files').where({ filename: '产品手册.pdf' }).first()) as { storage_key: string; status: string };
    assert.equal(row.status, 'approved');
    assert.equal(sha256(await fs.readFile(path.join(branch.dataDir, 'media', 'files', row.storage_key))), sha256(data));
    const centralRow = (await central.database()('media_files').where({ id: mediaId }).first('sha256')) as { sha256: string };
    assert.equal(centralRow.sha256, sha256(data), 'the sha256 was computed once from the bucket and kept');
  });

  test('a media suggested on the branch goes up in pieces, resumes after a cut, and lands in the bucket once', async () => {
    const data = crypto.randomBytes(2_000_000);
    const token = branch.adminToken;
    assert.equal((await branch.api.post('/api/company-train/suggest-material', { token, form: form({ remark: 'from the branch' }, { name: 'flyer.pdf', data }) })).status, 201);
    const cut = proxy.cutNext({ request: 'PUT /api/sync/uploads/', afterBytes: 0, afterRequestBytes: 700_000 });
    assert.equal((await run()).status, 502);
    await cut;
    await ok(await run());
    const resumed = proxy.requests.filter((r) => r.startsWith('PUT /api/sync/uploads/')).at(-1)!;
    const from = Number(/content-range: bytes (\d+)-/i.exec(resumed)?.[1]);
    assert.ok(from > 0 && from < data.length, resumed);
    await ok(await run());
    const rows = (await central.database()('media_files').where({ filename: 'flyer.pdf' })) as { storage_key: string; status: string }[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.status, 'pending');
    assert.equal(await objectSha256(keys.media(rows[0]!.storage_key)), sha256(data));
    const staged: string[] = [];
    for await (const object of bucket.list('sync/uploads/')) staged.push(object.key);
    assert.deepEqual(staged, [], 'the uploaded pieces are gone once the media is stored');
  });

  test('the central node keeps no user file on its disk', async () => {
    const left = (await filesUnder(central.dataDir)).filter((f) => !/^(trainbench\.sqlite.*|secrets\.json|pack-signing-key\.pem|server\.running|node-id|logs\/.*)$/.test(f));
    assert.deepEqual(left, []);
  });
});
