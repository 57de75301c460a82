// Two installs (two servers, two DATA_DIRs, two signing keys): A exports approved knowledge, B imports it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as tar from 'tar';
import { startTestServer, type TestServer } from '../support/server.js';
import { approve, downloadSha256, filesUnder, settledExtraction, sha256, uploadOk } from './media-fixtures.js';
import { sha256File, writePack } from '../../server/knowledge-packs/pack-file.js';
import { installSigner } from '../../server/knowledge-packs/signing.js';

const FUND_GUIDE = `---
title: Fund guide
domain: product
---
# Fund guide

Everything an adviser needs about our bond funds. zephyrquartz is the internal codename.

## Product: Harbor Income Fund

- code: HB-INC-01
- category: fixed_income
- summary: A low risk government bond fund.

The Harbor Income Fund invests in government bonds with short maturities.

## Question

- type: single
- stem: Which risk level does the Harbor Income Fund carry?
- A. Low
- B. High
- answer: A
`;

describe('knowledge packs /api/knowledge-packs', () => {
  let a: TestServer;
  let b: TestServer;
  let employeeA: { token: string };
  let employeeB: { token: string };
  let tmp: string;
  let fundGuideId: number;
  let clip: Uint8Array;
  let clipId: number;
  let handbookId: number;
  let fullPack: Buffer;

  const write = async (ts: TestServer, relative: string, content: string) => {
    const file = path.join(ts.config.knowledgeDir, relative);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
  };
  const scanIdOf = async (ts: TestServer, filePath: string): Promise<number> => {
    const res = await ts.api.post('/api/knowledge/scan', { token: ts.adminToken });
    assert.equal(res.status, 200, res.text);
    return res.body.data.results.find((r: { file_path: string }) => r.file_path === filePath).source_id;
  };
  const approveSource = async (ts: TestServer, id: number) => {
    const res = await ts.api.post(`/api/knowledge/audit/${id}`, { token: ts.adminToken, body: { action: 'approve' } });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };
  /** Writes, scans and approves a source on an install. */
  const addSource = async (ts: TestServer, relative: string, content: string) => {
    await write(ts, relative, content);
    const id = await scanIdOf(ts, relative);
    await approveSource(ts, id);
    return id;
  };
  const exportPack = async (ts: TestServer, body?: unknown, token = ts.adminToken) => {
    const res = await fetch(`${ts.url}/api/knowledge-packs/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const exportOk = async (ts: TestServer, body?: unknown) => {
    const { res, bytes } = await exportPack(ts, body);
    assert.equal(res.status, 200, bytes.toString());
    return bytes;
  };
  const importPack = (ts: TestServer, bytes: Uint8Array, token: string | undefined = ts.adminToken) => {
    const form = new FormData();
    form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), 'pack.tgz');
    return ts.api.post('/api/knowledge-packs/import', { token, form });
  };
  const total = async (ts: TestServer, p: string) => (await ts.api.get(`${p}?status=all&size=1`, { token: ts.adminToken })).body.data.total as number;
  /** Rows and files an import could leave behind. */
  const inventory = async (ts: TestServer) => ({
    sources: await total(ts, '/api/knowledge/audit-list'),
    media: await total(ts, '/api/media/audit-list'),
    knowledgeFiles: (await filesUnder(ts.config.knowledgeDir)).sort(),
    mediaFiles: (await filesUnder(path.join(ts.dataDir, 'media'))).sort(),
    packWork: await filesUnder(path.join(ts.dataDir, 'knowledge-packs')),
  });
  const keyOf = async (ts: TestServer) => (await ts.api.get('/api/knowledge-packs/key', { token: ts.adminToken })).body.data as { public_key: string; fingerprint: string };
  const unpack = async (bytes: Buffer, name: string) => {
    const dir = path.join(tmp, name);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, '..', `${name}.tgz`), bytes);
    await tar.extract({ file: path.join(dir, '..', `${name}.tgz`), cwd: dir });
    return dir;
  };
  const searchSources = async (ts: TestServer, q: string) => {
    const res = await ts.api.get(`/api/knowledge/search?q=${encodeURIComponent(q)}&limit=20`, { token: ts.adminToken });
    assert.equal(res.status, 200, res.text);
    return (res.body.data as { source: { type: string; id: number } }[]).map((hit) => hit.source);
  };

  before(async () => {
    [a, b] = await Promise.all([startTestServer(), startTestServer()]);
    [employeeA, employeeB] = await Promise.all([a.user(), b.user()]);
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'packs-test-'));
    fundGuideId = await addSource(a, 'catalog/fund-guide.md', FUND_GUIDE);
    const product = (await a.api.get('/api/products?q=HB-INC-01', { token: a.adminToken })).body.data[0];
    clip = crypto.randomBytes(300_000);
    clipId = await uploadOk(a.api, a.adminToken, 'clip.bin', clip, { bind_type: 'product', bind_id: product.id });
    handbookId = await uploadOk(a.api, a.adminToken, 'handbook.txt', Buffer.from('The staff handbook mentions marigoldvortex twice: marigoldvortex.'), { bind_type: 'company' });
    await approve(a.api, a.adminToken, clipId);
    await approve(a.api, a.adminToken, handbookId);
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('401 without a token, 403 for employees', async () => {
    const calls = [
      (token?: string) => a.api.get('/api/knowledge-packs/key', { token }),
      (token?: string) => a.api.post('/api/knowledge-packs/export', { token, body: {} }),
      (token?: string) => a.api.post('/api/knowledge-packs/import', { token, form: new FormData() }),
    ];
    for (const call of calls) {
      const anonymous = await call(undefined);
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error, 'unauthorized');
      const employee = await call(employeeA.token);
      assert.equal(employee.status, 403);
      assert.equal(employee.body.error, 'forbidden');
    }
  });

  test('each install has its own stable key', async () => {
    const keyA = await keyOf(a);
    assert.match(keyA.fingerprint, /^[0-9a-f]{32}$/);
    assert.ok(keyA.public_key.length > 40);
    assert.deepEqual(await keyOf(a), keyA);
    assert.notEqual((await keyOf(b)).public_key, keyA.public_key);
  });

  test('export refuses bad bodies, unknown ids, unapproved items and empty selections', async () => {
    const bad = await a.api.post('/api/knowledge-packs/export', { token: a.adminToken, body: { source_ids: 'all' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'validation_failed');
    const unknown = await a.api.post('/api/knowledge-packs/export', { token: a.adminToken, body: { media_ids: [987654] } });
    assert.equal(unknown.status, 404);

    await write(a, 'drafts/draft.md', '# Draft\n\nNot reviewed yet.');
    const draftId = await scanIdOf(a, 'drafts/draft.md');
    const pending = await a.api.post('/api/knowledge-packs/export', { token: a.adminToken, body: { source_ids: [fundGuideId, draftId] } });
    assert.equal(pending.status, 400);
    assert.equal(pending.body.error, 'pack_not_approved');
    assert.deepEqual(pending.body.details, { source_ids: [draftId], media_ids: [] });

    // A file edited since its approval would carry content nobody reviewed.
    await write(a, 'catalog/fund-guide.md', `${FUND_GUIDE}\nUnreviewed edit.\n`);
    const changed = await a.api.post('/api/knowledge-packs/export', { token: a.adminToken, body: { source_ids: [fundGuideId] } });
    assert.equal(changed.status, 409);
    assert.equal(changed.body.error, 'knowledge.file_changed');
    await write(a, 'catalog/fund-guide.md', FUND_GUIDE);

    const emptyLists = await a.api.post('/api/knowledge-packs/export', { token: a.adminToken, body: { source_ids: [], media_ids: [] } });
    assert.equal(emptyLists.status, 400);
    assert.equal(emptyLists.body.error, 'pack_empty');
    const nothingApproved = await b.api.post('/api/knowledge-packs/export', { token: b.adminToken });
    assert.equal(nothingApproved.status, 400);
    assert.equal(nothingApproved.body.error, 'pack_empty');
  });

  test('export downloads a signed gzip of every approved source and media, bindings made portable', async () => {
    const { res, bytes } = await exportPack(a);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/gzip');
    assert.match(res.headers.get('content-disposition')!, /^attachment; filename="trainbench-pack-\d{4}-\d{2}-\d{2}\.tgz"$/);
    assert.equal(Number(res.headers.get('content-length')), bytes.length);
    fullPack = bytes;

    const dir = await unpack(bytes, 'full');
    const manifest = JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.public_key, (await keyOf(a)).public_key);
    assert.deepEqual(manifest.sources.map((s: { file_path: string; title: string; domain: string }) => [s.file_path, s.title, s.domain]), [['catalog/fund-guide.md', 'Fund guide', 'product']]);
    assert.equal(await fs.readFile(path.join(dir, manifest.sources[0].path), 'utf8'), FUND_GUIDE);
    const media = manifest.media.map((m: { filename: string; bind_type: string; bind_ref?: string; mime_type: string }) => [m.filename, m.bind_type, m.bind_ref, m.mime_type]);
    assert.deepEqual(media, [['clip.bin', 'product', 'HB-INC-01', 'application/octet-stream'], ['handbook.txt', 'company', undefined, 'text/plain']]);
    assert.equal(sha256(await fs.readFile(path.join(dir, manifest.media[0].path))), sha256(clip));
    // The pack was built under DATA_DIR and is removed once the response is over (bounded polling, no timing).
    const work = path.join(a.dataDir, 'knowledge-packs', 'work');
    for (let poll = 0; poll < 200 && (await fs.readdir(work)).length; poll++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(await fs.readdir(work), []);
  });

  test('a damaged, tampered, truncated or foreign pack is refused with nothing imported', async () => {
    const before = await inventory(b);
    const refused = async (bytes: Uint8Array, what: string) => {
      const res = await importPack(b, bytes);
      assert.equal(res.status, 400, `${what}: ${res.text}`);
      assert.equal(res.body.error, 'pack_invalid', what);
    };
    const flipped = Buffer.from(fullPack);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    await refused(flipped, 'byte flipped in the gzip');
    await refused(fullPack.subarray(0, Math.floor(fullPack.length * 0.8)), 'truncated');
    await refused(crypto.randomBytes(4096), 'random bytes');
    await refused(new Uint8Array(0), 'empty file');
    // A gzip of 64 MB of zeros (about 64 KB): stopped as soon as it unpacks past 100 times its size.
    const zeros = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    const bomb = await importPack(b, zeros);
    assert.deepEqual([bomb.status, bomb.body.error], [400, 'pack_invalid'], bomb.text);
    assert.match(bomb.body.message, /100 times its size/);

    const dir = await unpack(fullPack, 'edited');
    const manifest = JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8'));
    await fs.appendFile(path.join(dir, manifest.sources[0].path), '\nInjected line.\n');
    const entries = (await filesUnder(dir)).map((f) => f.split(path.sep).join('/'));
    const edited = path.join(tmp, 'edited-repacked.tgz');
    await tar.create({ gzip: true, file: edited, cwd: dir }, entries);
    await refused(await fs.readFile(edited), 'file edited inside');

    const noFile = await b.api.post('/api/knowledge-packs/import', { token: b.adminToken, form: new FormData() });
    assert.equal(noFile.status, 400);
    const notMultipart = await b.api.post('/api/knowledge-packs/import', { token: b.adminToken, body: {} });
    assert.equal(notMultipart.status, 400);
    assert.deepEqual(await inventory(b), before);
  });

  test('a pack signed by any key must still name safe paths', async () => {
    const evilDir = path.join(tmp, 'evil');
    await fs.mkdir(evilDir, { recursive: true });
    const source = path.join(evilDir, 'evil.md');
    await fs.writeFile(source, '# Evil\n');
    const { sha256: hash, size } = await sha256File(source);
    const evilPack = path.join(evilDir, 'evil.tgz');
    const entry = { path: 'sources/1.md', size, sha256: hash, title: 'Evil', domain: 'company' };
    const before = await inventory(b);
    for (const filePath of ['../../escape.md', '/etc/escape.md', 'a/../../escape.md', '.hidden/x.md', 'notes.txt']) {
      await fs.rm(path.join(evilDir, 'stage'), { recursive: true, force: true });
      await writePack(evilPack, path.join(evilDir, 'stage'), { created_at: new Date().toISOString(), sources: [{ ...entry, file_path: filePath }], media: [] }, new Map([['sources/1.md', source]]), installSigner(path.join(evilDir, 'key')));
      const res = await importPack(b, await fs.readFile(evilPack));
      assert.equal(res.status, 400, filePath);
      assert.equal(res.body.error, 'pack_invalid');
    }
    // A name too long to be placed beside its temporary copy, and a file that is also another source's folder.
    const entry2 = { ...entry, path: 'sources/2.md' };
    const source2 = path.join(evilDir, 'evil-2.md');
    await fs.copyFile(source, source2);
    for (const sources of [[{ ...entry, file_path: `${'a'.repeat(252)}.md` }], [{ ...entry, file_path: `${'题'.repeat(80)}.md` }], [{ ...entry, file_path: 'x.md' }, { ...entry2, file_path: 'x.md/y.md' }]]) {
      await fs.rm(path.join(evilDir, 'stage'), { recursive: true, force: true });
      const files = new Map(sources.map((s) => [s.path, s.path === entry2.path ? source2 : source]));
      await writePack(evilPack, path.join(evilDir, 'stage'), { created_at: new Date().toISOString(), sources, media: [] }, files, installSigner(path.join(evilDir, 'key')));
      const res = await importPack(b, await fs.readFile(evilPack));
      assert.deepEqual([res.status, res.body.error], [400, 'pack_invalid'], `${sources.map((s) => s.file_path.slice(0, 20)).join(' + ')}: ${res.text}`);
    }
    assert.deepEqual(await inventory(b), before);
    await assert.rejects(fs.access(path.join(b.config.knowledgeDir, '..', 'escape.md')));
  });

  test('an untrusted pack arrives pending; importing it again changes nothing; B approves and it ingests', async () => {
    const fpA = (await keyOf(a)).fingerprint;
    // Four at once (an admin clicking again): they run one after another, so one creates and the others find it.
    const all = await Promise.all([1, 2, 3, 4].map(() => importPack(b, fullPack)));
    assert.deepEqual(all.map((r) => r.status).sort(), [200, 200, 200, 201], all.map((r) => r.text).join('\n'));
    const res = all.find((r) => r.status === 201)!;
    const result = res.body.data;
    assert.equal(result.trusted, false);
    assert.equal(result.fingerprint, fpA);
    const filePath = `imported/${fpA}/catalog/fund-guide.md`;
    assert.deepEqual(result.sources.map((s: { file_path: string; title: string; status: string; change: string }) => [s.file_path, s.title, s.status, s.change]), [[filePath, 'Fund guide', 'pending', 'created']]);
    assert.deepEqual(result.media.map((m: { filename: string; status: string; change: string }) => [m.filename, m.status, m.change]), [['clip.bin', 'pending', 'created'], ['handbook.txt', 'pending', 'created']]);
    assert.equal(await fs.readFile(path.join(b.config.knowledgeDir, filePath), 'utf8'), FUND_GUIDE);
    const bound = async (id: number) => (await b.api.get(`/api/media/${id}`, { token: b.adminToken })).body.data;
    assert.equal((await bound(result.media[0].id)).bind_type, 'none', 'product HB-INC-01 does not exist on B yet');
    assert.equal((await bound(result.media[1].id)).bind_type, 'company');

    const counted = await inventory(b);
    const again = await importPack(b, fullPack);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.data.sources.map((s: { id: number; change: string }) => [s.id, s.change]), [[result.sources[0].id, 'unchanged']]);
    assert.deepEqual(again.body.data.media.map((m: { id: number; change: string }) => [m.id, m.change]), result.media.map((m: { id: number }) => [m.id, 'unchanged']));
    assert.deepEqual(await inventory(b), counted);

    const approved = await approveSource(b, result.sources[0].id);
    assert.deepEqual([approved.products, approved.questions], [1, 1]);
    assert.ok(approved.chunks >= 1);
    assert.ok((await searchSources(b, 'zephyrquartz')).some((s) => s.type === 'knowledge' && s.id === result.sources[0].id));
    // The imported file is an ordinary source of the knowledge directory now.
    const scanned = await b.api.post('/api/knowledge/scan', { token: b.adminToken });
    assert.equal(scanned.body.data.results.find((r: { file_path: string }) => r.file_path === filePath).status, 'unchanged');

    await approve(b.api, b.adminToken, result.media[0].id);
    const preview = await b.api.get(`/api/media/preview/${result.media[0].id}`, { token: employeeB.token });
    const download = await downloadSha256(b.url, preview.body.data.preview_url);
    assert.deepEqual([download.status, download.bytes, download.sha256], [200, clip.length, sha256(clip)]);
  });

  test('a pack signed by a trusted key arrives approved: sources ingested, media extracted, bindings resolved', async () => {
    const fpA = (await keyOf(a)).fingerprint;
    const trust = await b.api.put('/api/system/config', { token: b.adminToken, body: { configs: { trusted_pack_keys: [fpA] } } });
    assert.equal(trust.status, 200, trust.text);

    await write(a, 'catalog/fund-guide.md', FUND_GUIDE.replace('## Question', 'A new paragraph about nebulafjord.\n\n## Question'));
    await approveSource(a, await scanIdOf(a, 'catalog/fund-guide.md'));
    const faqId = await addSource(a, 'faq.md', '# FAQ\n\nAnswers mention quillemberglow.');
    const product = (await a.api.get('/api/products?q=HB-INC-01', { token: a.adminToken })).body.data[0];
    const briefId = await uploadOk(a.api, a.adminToken, 'brief.txt', Buffer.from('A briefing about tangerinecascade.'), { bind_type: 'product', bind_id: product.id });
    await approve(a.api, a.adminToken, briefId);
    const pack = await exportOk(a, { source_ids: [fundGuideId, faqId], media_ids: [handbookId, briefId] });

    const res = await importPack(b, pack);
    assert.equal(res.status, 201, res.text);
    const result = res.body.data;
    assert.equal(result.trusted, true);
    assert.deepEqual(result.sources.map((s: { file_path: string; status: string; change: string }) => [s.file_path, s.status, s.change]), [
      [`imported/${fpA}/catalog/fund-guide.md`, 'approved', 'updated'],
      [`imported/${fpA}/faq.md`, 'approved', 'created'],
    ]);
    assert.deepEqual(result.media.map((m: { filename: string; status: string; change: string }) => [m.filename, m.status, m.change]), [['handbook.txt', 'approved', 'unchanged'], ['brief.txt', 'approved', 'created']]);

    const guide = (await b.api.get(`/api/knowledge/status/${result.sources[0].id}`, { token: b.adminToken })).body.data;
    assert.deepEqual([guide.products, guide.questions, guide.reviewed_by !== null], [1, 1, true]);
    assert.ok((await searchSources(b, 'nebulafjord')).some((s) => s.type === 'knowledge' && s.id === result.sources[0].id));
    assert.ok((await searchSources(b, 'quillemberglow')).some((s) => s.type === 'knowledge' && s.id === result.sources[1].id));

    for (const [media, word] of [[result.media[0], 'marigoldvortex'], [result.media[1], 'tangerinecascade']] as const) {
      const status = await settledExtraction(b.api, b.adminToken, media.id);
      assert.equal(status.extraction.state, 'done', JSON.stringify(status));
      assert.ok((await searchSources(b, word)).some((s) => s.type === 'media' && s.id === media.id), word);
    }
    const productOnB = (await b.api.get('/api/products?q=HB-INC-01', { token: b.adminToken })).body.data[0];
    const brief = (await b.api.get(`/api/media/${result.media[1].id}`, { token: b.adminToken })).body.data;
    assert.deepEqual([brief.bind_type, brief.bind_id], ['product', productOnB.id]);
  });

  test('a trusted pack that cannot be ingested, or that would overwrite a foreign file, imports nothing', async () => {
    const fpA = (await keyOf(a)).fingerprint;
    const course = await a.api.post('/api/courses', { token: a.adminToken, body: { title: 'Only on A' } });
    assert.equal(course.status, 201, course.text);
    const glossaryId = await addSource(a, 'extra/glossary.md', '# Glossary\n\nTerms and more terms.');
    // B has no course of that id: ingesting the question fails there, after the glossary was already written.
    const quizId = await addSource(a, 'extra/quiz.md', `# Quiz\n\n## Question\n\n- type: true_false\n- stem: Bonds carry risk.\n- answer: true\n- course_id: ${course.body.data.id}\n`);
    const glossaryOnly = await exportOk(a, { source_ids: [glossaryId] });
    const withQuiz = await exportOk(a, { source_ids: [glossaryId, quizId] });

    const before = await inventory(b);
    const failed = await importPack(b, withQuiz);
    assert.equal(failed.status, 400, failed.text);
    assert.equal(failed.body.error, 'knowledge.invalid_format');
    assert.match(failed.body.message, /extra\/quiz\.md/);
    assert.deepEqual(await inventory(b), before);

    const foreign = path.join(b.config.knowledgeDir, 'imported', fpA, 'extra', 'glossary.md');
    await fs.mkdir(path.dirname(foreign), { recursive: true });
    await fs.writeFile(foreign, '# Written by hand on B\n');
    const withForeign = await inventory(b);
    const conflict = await importPack(b, glossaryOnly);
    assert.equal(conflict.status, 409, conflict.text);
    assert.equal(conflict.body.error, 'pack_conflict');
    assert.deepEqual(await inventory(b), withForeign);
    assert.equal(await fs.readFile(foreign, 'utf8'), '# Written by hand on B\n');

    await fs.rm(foreign);
    // A folder on the way that is a link: nothing is written through it.
    const elsewhere = path.join(tmp, 'elsewhere');
    await fs.mkdir(elsewhere, { recursive: true });
    await fs.rmdir(path.dirname(foreign));
    await fs.symlink(elsewhere, path.dirname(foreign));
    const linked = await importPack(b, glossaryOnly);
    assert.deepEqual([linked.status, linked.body.error], [409, 'pack_conflict'], linked.text);
    assert.match(linked.body.message, /is a link or not a folder/);
    assert.deepEqual(await fs.readdir(elsewhere), []);
    await fs.rm(path.dirname(foreign));

    const imported = await importPack(b, glossaryOnly);
    assert.equal(imported.status, 201, imported.text);
    assert.equal(imported.body.data.sources[0].status, 'approved');
  });
});
