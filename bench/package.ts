// Issue 10: the installed app's size without Electron itself. electron-builder packs the app for this platform
// (`--dir`: the unpacked app folder, no installer) with a stand-in for Electron's own files (electronDist: an
// empty folder but for an empty `electron` program), so nothing is downloaded and everything measured is ours:
// app.asar, the files unpacked next to it and the extra resources. The baseline is what went in: the built app
// plus the production dependencies as npm installed them. The packaged layout is checked on the way (every
// program the server runs is unpacked).
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { buildWhatIsMissing, RENDERER, SERVER_AND_MAIN } from '../main/launcher/build-steps.js';
import { ffmpegProgram, whisperCppProgram } from '../server/runtime-paths.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function sizeOf(target: string): Promise<number> {
  const stats = await fs.lstat(target).catch(() => null);
  if (!stats) return 0;
  if (!stats.isDirectory()) return stats.size;
  let total = 0;
  for (const entry of await fs.readdir(target)) total += await sizeOf(path.join(target, entry));
  return total;
}

/** The production dependencies npm installed (what electron-builder starts from), in bytes. */
async function productionDependencies(): Promise<number> {
  const { stdout } = await promisify(execFile)('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).catch((err: { stdout: string }) => err);
  const dirs = stdout.split('\n').filter((dir) => dir && dir !== root && dir.includes(`${path.sep}node_modules${path.sep}`));
  // Nested packages are inside their parents' folders: count top-most folders only.
  const tops = dirs.sort().filter((dir, i, all) => !all.slice(0, i).some((parent) => dir.startsWith(parent + path.sep)));
  let total = 0;
  for (const dir of tops) total += await sizeOf(dir);
  return total;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export default async function packageSize(): Promise<void> {
  if (!buildWhatIsMissing(root, [SERVER_AND_MAIN, RENDERER], (line) => console.log(`  ${line}`))) throw new Error('the build failed');
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-bench-package-'));
  try {
    const electronDist = path.join(work, 'electron');
    await fs.mkdir(electronDist);
    await fs.writeFile(path.join(electronDist, 'electron'), '', { mode: 0o755 });
    const output = path.join(work, 'release');
    const started = Date.now();
    await promisify(execFile)(
      process.execPath,
      [path.join(root, 'node_modules/electron-builder/cli.js'), `--${process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'win' : 'linux'}`, 'dir', `-c.electronDist=${electronDist}`, `-c.directories.output=${output}`, '--publish', 'never'],
      { cwd: root, env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }, maxBuffer: 64 * 1024 * 1024 },
    );
    const unpackedDir = (await fs.readdir(output)).find((name) => name.endsWith('-unpacked') || name === 'mac');
    if (!unpackedDir) throw new Error(`electron-builder made no app folder in ${output}`);
    const resources = (await fs.readdir(path.join(output, unpackedDir), { recursive: true })).find((p) => p.endsWith(`resources${path.sep}app.asar`));
    const resourcesDir = path.join(output, unpackedDir, path.dirname(resources ?? 'resources/app.asar'));

    const parts = {
      'app.asar': await sizeOf(path.join(resourcesDir, 'app.asar')),
      'app.asar.unpacked': await sizeOf(path.join(resourcesDir, 'app.asar.unpacked')),
      'extra resources': (await sizeOf(path.join(resourcesDir, 'knowledge-sources'))) + (await sizeOf(path.join(resourcesDir, 'models'))),
    };
    const total = Object.values(parts).reduce((a, b) => a + b, 0);
    const input = (await sizeOf(path.join(root, 'dist'))) + (await sizeOf(path.join(root, 'renderer', 'dist'))) + (await productionDependencies()) + (await sizeOf(path.join(root, 'knowledge-sources')));

    const appRoot = path.join(resourcesDir, 'app.asar');
    for (const [name, program] of [['whisper.cpp', whisperCppProgram(root)], ['ffmpeg', ffmpegProgram('ffmpeg', root)], ['ffprobe', ffmpegProgram('ffprobe', root)]] as const) {
      const relative = path.relative(root, program ?? '');
      const unpacked = path.join(resourcesDir, 'app.asar.unpacked', relative);
      if (!(await fs.stat(unpacked).catch(() => null))) throw new Error(`${name} is not unpacked next to ${appRoot}: ${unpacked} is missing`);
    }

    console.log(`  electron-builder --dir with a stand-in Electron: ${((Date.now() - started) / 1000).toFixed(0)} s`);
    for (const [name, bytes] of Object.entries(parts)) console.log(`  ${name.padEnd(20)} ${mb(bytes).padStart(10)}`);
    const largest = await largestUnpacked(path.join(resourcesDir, 'app.asar.unpacked'));
    console.log(`    of which unpacked: ${largest.map(([name, bytes]) => `${name} ${mb(bytes)}`).join(', ')}`);
    console.log(
      `${'packaged app without Electron'.padEnd(44)} ${mb(total).padStart(10)}  = ${((total / input) * 100).toFixed(1)} % of what went in (dist, renderer/dist, production node_modules, knowledge-sources: ${mb(input)})`,
    );
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** The biggest packages in app.asar.unpacked. */
async function largestUnpacked(dir: string): Promise<[string, number][]> {
  const modules = path.join(dir, 'node_modules');
  const names = await fs.readdir(modules).catch(() => [] as string[]);
  const sized: [string, number][] = [];
  for (const name of names) sized.push([name, await sizeOf(path.join(modules, name))]);
  return sized.sort((a, b) => b[1] - a[1]).slice(0, 5);
}
