import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export interface StartedCli {
  child: ChildProcess;
  url: string;
  /** Everything printed so far (stdout and stderr); grows while the server runs. */
  output: string;
}

/** Runs the real `npm run server` entry point (server/cli.ts) and waits for its `listening on` line. */
export function startCli(env: Record<string, string>): Promise<StartedCli> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: env.HOME ?? os.tmpdir(), NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const started: StartedCli = { child, url: '', output: '' };
    const onData = (chunk: Buffer) => {
      started.output += chunk.toString();
      const match = /^listening on (http:\/\/\S+)$/m.exec(started.output);
      if (match && !started.url) {
        started.url = match[1]!;
        resolve(started);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${started.output}`)));
  });
}

/** SIGTERM lets the server stop cleanly; SIGKILL is a crash (or a power cut, as far as the server can tell). */
export const stopCli = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
