import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as tar from 'tar';
import { readPack, sha256File, writePack } from '../../server/knowledge-packs/pack-file.js';
import { installSigner, isTrusted } from '../../server/knowledge-packs/signing.js';

describe('knowledge pack files', () => {
  let dir: string;
  let pack: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pack-unit-'));
    const source = path.join(dir, 'intro.md');
    await fs.writeFile(source, '# Intro\n\nHello branch.');
    const { sha256, size } = await sha256File(source);
    pack = path.join(dir, 'out.tgz');
    await writePack(pack, path.join(dir, 'stage'), { created_at: new Date().toISOString(), sources: [{ path: 'sources/1.md', file_path: 'intro.md', title: 'Intro', domain: 'company', sha256, size }], media: [] }, new Map([['sources/1.md', source]]), installSigner(path.join(dir, 'data')));
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  test('a pack written by one install reads back verified, and its key is stable per install', async () => {
    const manifest = await readPack(pack, path.join(dir, 'read1'));
    assert.equal(manifest.sources[0]!.title, 'Intro');
    assert.equal(await fs.readFile(path.join(dir, 'read1/sources/1.md'), 'utf8'), '# Intro\n\nHello branch.');
    const signer = installSigner(path.join(dir, 'data'));
    assert.equal(manifest.public_key, signer.publicKey);
    assert.ok(isTrusted(signer.publicKey, [signer.fingerprint]));
    assert.ok(!isTrusted(signer.publicKey, [installSigner(path.join(dir, 'other')).publicKey]));
  });

  test('a truncated pack is rejected', async () => {
    const bytes = await fs.readFile(pack);
    const cut = path.join(dir, 'cut.tgz');
    await fs.writeFile(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await assert.rejects(readPack(cut, path.join(dir, 'read2')), { code: 'pack_invalid' });
  });

  async function repack(name: string, edit: (folder: string) => Promise<void>): Promise<string> {
    const folder = path.join(dir, `${name}-src`);
    await fs.mkdir(folder, { recursive: true });
    await tar.extract({ file: pack, cwd: folder });
    await edit(folder);
    const out = path.join(dir, `${name}.tgz`);
    const entries = (await fs.readdir(folder, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(folder, path.join(e.parentPath, e.name)));
    await tar.create({ gzip: true, file: out, cwd: folder }, entries);
    return out;
  }

  test('a changed file, a changed manifest or an extra file is rejected', async () => {
    const content = await repack('content', (f) => fs.writeFile(path.join(f, 'sources/1.md'), '# Intro\n\nHello branch!'));
    await assert.rejects(readPack(content, path.join(dir, 'r3')), /Checksum mismatch/);
    const manifest = await repack('manifest', async (f) => {
      const m = JSON.parse(await fs.readFile(path.join(f, 'manifest.json'), 'utf8'));
      m.sources[0].title = 'Evil';
      await fs.writeFile(path.join(f, 'manifest.json'), JSON.stringify(m, null, 2));
    });
    await assert.rejects(readPack(manifest, path.join(dir, 'r4')), /signature/);
    const extra = await repack('extra', (f) => fs.writeFile(path.join(f, 'sources/2.md'), 'sneaky'));
    await assert.rejects(readPack(extra, path.join(dir, 'r5')), /does not list/);
  });

  test('entries outside the allowed layout (traversal, links) are rejected', async () => {
    const evil = path.join(dir, 'evil.tgz');
    const header = new tar.Header({ path: '../escape.txt', type: 'File', size: 4, mode: 0o644, mtime: new Date() });
    header.encode();
    const block = Buffer.alloc(512);
    Buffer.from('evil').copy(block);
    await fs.writeFile(evil, zlib.gzipSync(Buffer.concat([header.block!, block, Buffer.alloc(1024)])));
    await assert.rejects(readPack(evil, path.join(dir, 'r6')), { code: 'pack_invalid' });
    await assert.rejects(fs.access(path.join(dir, 'escape.txt')));
  });
});
