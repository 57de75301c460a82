// `npm start`: builds what is missing, then opens the desktop window. Where no window can open (no Electron
// binary, as on CI and on laptops where IT blocks its download, or no display) it says so in one line and runs
// the same app for a browser instead. `npm run server` (`launch.ts server`): builds what is missing, then runs
// the headless server (server/cli.ts), so that `/` always serves the UI. Failures are one line, never a stack.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWhatIsMissing, RENDERER, SERVER_AND_MAIN } from './launcher/build-steps.js';
import { findElectron } from './launcher/electron-binary.js';
import { runInBrowserMode } from './launcher/browser-mode.js';
import { SERVER_HEAP_FLAGS } from '../server/heap-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (line: string) => console.log(`[trainbench] ${line}`);

/** Runs a program in the foreground (signals passed on) and resolves its exit code. */
function runForeground(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  return new Promise((resolve) => {
    child.on('error', (err) => {
      say(`could not run ${command}: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 0 : 1)));
  });
}

async function start(args: string[]): Promise<number> {
  if (!buildWhatIsMissing(root, [SERVER_AND_MAIN, RENDERER], say)) return 1;
  if (args[0] === 'server') return runForeground(process.execPath, [...SERVER_HEAP_FLAGS, path.join(root, 'dist', 'server', 'cli.js')], process.env);

  const electron = args.includes('--browser') ? { missing: 'the browser was asked for (--browser)' } : findElectron(root);
  if ('binary' in electron) {
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    return runForeground(electron.binary, [root], env);
  }
  say(`No desktop window: ${electron.missing}. Starting Trainbench for your browser instead.`);
  return runInBrowserMode(root, say);
}

start(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    say(`could not start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
