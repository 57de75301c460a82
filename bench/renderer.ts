// npm run bench -- renderer: the built renderer's initial JavaScript (gzip) against its 250 KB budget, the largest
// chunks loaded on demand, and how soon the first screen is usable (first-screen.ts). Builds the renderer first.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { defaultRendererDir } from '../server/static/static.js';
import { bundleSizes, INITIAL_JS_BUDGET_GZIP } from './renderer-size.js';
import { firstScreen } from './first-screen.js';
import type { BenchContext } from './harness.js';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export default async function renderer(ctx: BenchContext): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..');
  const built = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('renderer build failed');
  const sizes = bundleSizes(defaultRendererDir());
  console.log(`initial JS: ${kb(sizes.initialGzip)} gzip in ${sizes.initial.length} files = ${((sizes.initialGzip / INITIAL_JS_BUDGET_GZIP) * 100).toFixed(0)}% of the ${kb(INITIAL_JS_BUDGET_GZIP)} budget`);
  for (const f of sizes.initial) console.log(`  ${f.file.padEnd(48)} ${kb(f.gzip)}`);
  console.log(`on demand: ${sizes.lazy.length} chunks, ${kb(sizes.lazy.reduce((sum, f) => sum + f.gzip, 0))} gzip in all; largest:`);
  for (const f of sizes.lazy.slice(0, 5)) console.log(`  ${f.file.padEnd(48)} ${kb(f.gzip)}`);
  await firstScreen(ctx);
}
