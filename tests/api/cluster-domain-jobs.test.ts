// The work a request waits for runs as a job on the central server (server/jobs/, JobQueue.run): a knowledge pack
// import, a knowledge approve and a coaching analysis, sent through a round-robin proxy to two nodes, are claimed by
// either node, and the request answers with the same bodies and statuses as on one server (a 4xx from the node that
// ran the job reaches the client as it was). Pack imports are one at a time in the whole cluster: two sent at once
// to the two nodes run one after the other. Each node has its own empty KNOWLEDGE_DIR: knowledge sources live in the
// bucket's knowledge/ prefix, as the uploaded pack does while it is imported, so a source one node places is scanned,
// approved and exported through the other, and no node keeps a knowledge file on its disk.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { usingPostgres } from '../support/server.js';
import { ApiClient } from '../support/client.js';
import { POSTGRES_URL, startCluster, type Cluster } from '../support/cluster.js';
import type { StartedCli } from '../support/cli.js';
import { readPack, sha256File, writePack } from '../../server/knowledge-packs/pack-file.js';
import { installSigner } from '../../server/knowledge-packs/signing.js';

const GUIDE = `---
title: Harbor guide
domain: product
---
# Harbor guide

## Product: Harbor Income Fund

- code: HB-INC-01
- category: fixed_income
- summary: A low risk government bond fund.

The Harbor Income Fund invests in government bonds with short maturities. quillmarsh is its codename.
`;

const SEGMENTS = [
  { start: 0, end: 3, speaker: 'rep', text: 'Hello, I am calling about the Harbor Income Fund.' },
  { start: 3, end: 6, speaker: 'customer', text: 'Is it risky?' },
  { start: 6, end: 9, speaker: 'rep', text: 'It is a low risk government bond fund.' },
];

describe('domain jobs on two nodes', { skip: !usingPostgres && 'a cluster runs on PostgreSQL and a bucket; checked in the PostgreSQL pass' }, () => {
  let cluster: Cluster;
  let work: string;
  let db: Knex;
  let api: ApiClient;
  let token: string;

  const importPack = (url: string, bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'pack.tgz');
    return new ApiClient(url).post('/api/knowledge-packs/import', { token, form });
  };

  /** A pack signed by a key this install does not trust: its source arrives pending. */
  async function foreignPack(name: string, content: string): Promise<Buffer> {
    const dir = path.join(work, name);
    await fs.mkdir(dir, { recursive: true });
    const source = path.join(dir, 'source.md');
    await fs.writeFile(source, content);
    const { sha256, size } = await sha256File(source);
    const file = path.join(dir, 'pack.tgz');
    const entry = { path: 'sources/1.md', size, sha256, title: name, domain: 'product', file_path: `${name}.md` };
    await writePack(file, path.join(dir, 'stage'), { created_at: new Date().toISOString(), sources: [entry], media: [] }, new Map([['sources/1.md', source]]), installSigner(path.join(work, 'signer')));
    return fs.readFile(file);
  }

  before(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-domain-jobs-'));
    cluster = await startCluster(2);
    // Each node's own KNOWLEDGE_DIR (<DATA_DIR>/knowledge), empty.
    for (const dir of cluster.dataDirs) await fs.mkdir(path.join(dir, 'knowledge'));
    db = knexFactory({ client: 'pg', connection: POSTGRES_URL, searchPath: [cluster.schema] });
    api = new ApiClient(cluster.url);
    token = await api.login('admin', 'admin-pass-123');
  });
  after(async () => {
    await db?.destroy();
    await cluster?.close();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  test('a pack imported through the proxy is imported, and its upload leaves neither the bucket nor a node’s disk with a file', async () => {
    const pack = await foreignPack('through-proxy', '# Through the proxy\n\nImported by whichever node claimed the job.\n');
    const first = await importPack(cluster.url, pack);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.data.sources[0].status, 'pending');
    assert.equal(first.body.data.sources[0].change, 'created');
    const again = await importPack(cluster.url, pack);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.data.sources[0].change, 'unchanged');
    // A broken pack is the job's 400 answer, whichever node ran it.
    const broken = await importPack(cluster.url, Buffer.from('not a pack'));
    assert.deepEqual([broken.status, broken.body.error], [400, 'pack_invalid'], broken.text);
    const stored = (await fs.readdir(cluster.s3.directory, { recursive: true })) as string[];
    assert.deepEqual(stored.filter((name) => name.includes('knowledge-packs')), []);
    for (const dir of cluster.dataDirs) {
      const left = (await fs.readdir(path.join(dir, 'knowledge-packs'), { recursive: true }).catch(() => [])) as string[];
      const files = [];
      for (const name of left) if ((await fs.stat(path.join(dir, 'knowledge-packs', name))).isFile()) files.push(name);
      assert.deepEqual(files, [], `left in ${dir}`);
    }
  });

  test('two imports of one pack sent at once to the two nodes run one after the other: one creates, the other finds it there', async () => {
    const pack = await foreignPack('at-once', '# At once\n\nTwo nodes, one import at a time.\n');
    const answers = await Promise.all(cluster.nodes.map((node) => importPack(node.url, pack)));
    assert.deepEqual(answers.map((res) => res.status).sort(), [200, 201], answers.map((res) => res.text).join('\n'));
    assert.deepEqual(answers.map((res) => res.body.data.sources[0].change).sort(), ['created', 'unchanged']);
  });

  test('a source one node imports is scanned, approved and exported through the other, and lives only in the bucket', async () => {
    const [one, other] = cluster.nodes as [StartedCli, StartedCli];
    const otherApi = new ApiClient(other.url);
    const imported = await importPack(one.url, await foreignPack('harbor', GUIDE));
    assert.equal(imported.status, 201, imported.text);
    const { id, file_path: filePath } = imported.body.data.sources[0] as { id: number; file_path: string };
    assert.match(filePath, /^imported\/[0-9a-f]+\/harbor\.md$/);

    const scanned = await otherApi.post('/api/knowledge/scan', { token });
    assert.equal(scanned.status, 200, scanned.text);
    assert.deepEqual(scanned.body.data.results.find((r: { file_path: string }) => r.file_path === filePath), { file_path: filePath, status: 'unchanged', title: 'harbor', source_id: id });

    // The approve job reads the file from the bucket on whichever node claims it.
    const approved = await otherApi.post(`/api/knowledge/audit/${id}`, { token, body: { action: 'approve' } });
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual(approved.body.data, { status: 'approved', source_id: id, products: 1, chunks: approved.body.data.chunks, questions: 0 });
    assert.ok(approved.body.data.chunks >= 1);
    const again = await api.post(`/api/knowledge/audit/${id}`, { token, body: { action: 'approve' } });
    assert.deepEqual([again.status, again.body.error], [409, 'knowledge.not_pending'], again.text);
    const hits = await api.get('/api/knowledge/search?q=quillmarsh', { token });
    assert.equal(hits.body.data.length, 1, hits.text);

    const exported = await fetch(`${other.url}/api/knowledge-packs/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source_ids: [id] }),
    });
    const packBytes = Buffer.from(await exported.arrayBuffer());
    assert.equal(exported.status, 200, packBytes.toString());
    const unpacked = path.join(work, 'exported');
    await fs.writeFile(path.join(work, 'exported.tgz'), packBytes);
    const manifest = await readPack(path.join(work, 'exported.tgz'), unpacked);
    assert.deepEqual(manifest.sources.map((s) => s.file_path), [filePath]);
    assert.equal(await fs.readFile(path.join(unpacked, manifest.sources[0]!.path), 'utf8'), GUIDE);

    for (const dir of cluster.dataDirs) assert.deepEqual(await fs.readdir(path.join(dir, 'knowledge'), { recursive: true }), [], `a knowledge file in ${dir}`);
    const inBucket = ((await fs.readdir(cluster.s3.directory, { recursive: true })) as string[]).map((name) => name.split(path.sep).join('/'));
    assert.ok(inBucket.some((name) => name.includes(`knowledge/${filePath}`)), inBucket.join('\n'));
  });

  test('coaching calls through the proxy make one report each; a refusal keeps its details', async () => {
    const me = (await api.get('/api/auth/me', { token })).body.data as { id: number };
    const [row] = await db('audio_transcriptions')
      .insert({
        user_id: me.id,
        filename: 'call.wav',
        file_size: 1000,
        text: SEGMENTS.map((s) => s.text).join(' '),
        language: 'en',
        segments: JSON.stringify(SEGMENTS),
        speakers_requested: true,
        has_speakers: true,
        route: JSON.stringify({ id: 0, name: 'test', provider: 'openai-compatible', is_local: false }),
        left_local: false,
        capability_degraded: false,
        capability_zh: '',
        attempts: '[]',
        created_at: new Date().toISOString(),
      })
      .returning('id');
    const transcriptionId = Number((row as { id: number }).id);
    const calls = await Promise.all([0, 1, 2].map(() => api.post('/api/coaching/calls', { token, body: { transcription_id: transcriptionId, rep_speaker: 'rep' } })));
    for (const res of calls) {
      assert.equal(res.status, 201, res.text);
      assert.equal(res.headers.get('location'), `/api/coaching/reports/${res.body.data.id}`);
      assert.equal(res.body.data.product?.code, 'HB-INC-01');
    }
    assert.equal(new Set(calls.map((res) => res.body.data.id)).size, 3);
    const listed = await api.get('/api/coaching/reports', { token });
    assert.equal(listed.body.data.total, 3);
    const refused = await api.post('/api/coaching/calls', { token, body: { transcription_id: transcriptionId, rep_speaker: 'agent' } });
    assert.deepEqual([refused.status, refused.body.error, refused.body.details], [400, 'coaching.unknown_speaker', { speakers: ['rep', 'customer'] }], refused.text);
    const missing = await api.post('/api/coaching/calls', { token, body: { transcription_id: 999_999, rep_speaker: 'rep' } });
    assert.equal(missing.status, 404, missing.text);
  });
});
