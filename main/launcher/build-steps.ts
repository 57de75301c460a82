// What `npm start` and `npm run server` build before running: each step's inputs and outputs, so a step whose
// outputs are newer than all its inputs is skipped. Compares modification times (a fresh build rewrites every
// output), so it costs a directory walk, not a compiler start.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface BuildStep {
  name: string;
  /** Files and folders (walked) whose change makes the step due; paths relative to the app root. */
  inputs: string[];
  /** Folders inside inputs that are not inputs (the step's own output, dependencies). */
  ignore: string[];
  /** Files the step writes; all must exist and be newer than every input. */
  outputs: string[];
  /** The command, run with the app root as working directory. */
  command: string[];
}

const node = process.execPath;

export const SERVER_AND_MAIN: BuildStep = {
  name: 'server and main process',
  inputs: ['contract', 'server', 'main', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'],
  ignore: [],
  outputs: ['dist/server/cli.js', 'dist/main/index.js', 'dist/main/server-host.js', 'dist/main/preload.cjs'],
  command: [node, 'node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'],
};

export const RENDERER: BuildStep = {
  name: 'renderer',
  inputs: ['renderer', 'contract', 'main/ipc', 'package.json', 'package-lock.json'],
  ignore: ['renderer/dist', 'renderer/node_modules'],
  outputs: ['renderer/dist/index.html'],
  command: [node, 'node_modules/vite/bin/vite.js', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'],
};

/** The newest modification time under `target` (a file or a folder, walked), in ms; 0 when it does not exist. */
function newestMtime(target: string, ignore: Set<string>): number {
  if (ignore.has(target)) return 0;
  let stats: fs.Stats;
  try {
    stats = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry), ignore));
  return newest;
}

/** Why the step must run ('' when its outputs are up to date). */
export function buildReason(root: string, step: BuildStep): string {
  const outputs = step.outputs.map((o) => path.join(root, o));
  const missing = outputs.find((o) => !fs.existsSync(o));
  if (missing) return `${path.relative(root, missing)} is missing`;
  const built = Math.min(...outputs.map((o) => fs.statSync(o).mtimeMs));
  const ignore = new Set(step.ignore.map((i) => path.join(root, i)));
  const changed = Math.max(...step.inputs.map((i) => newestMtime(path.join(root, i), ignore)));
  return changed > built ? 'sources changed since the last build' : '';
}

/**
 * Runs each step that is due, printing one line per step (the compiler's own output shows errors). Returns
 * false, after saying which step failed, when one did.
 */
export function buildWhatIsMissing(root: string, steps: BuildStep[], say: (line: string) => void): boolean {
  for (const step of steps) {
    const reason = buildReason(root, step);
    if (!reason) continue;
    say(`building the ${step.name} (${reason})…`);
    const [command, ...args] = step.command;
    const result = spawnSync(command!, args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) {
      say(`building the ${step.name} failed${result.error ? `: ${result.error.message}` : ' (its errors are above)'}`);
      return false;
    }
  }
  return true;
}
