// server-host.ts in a Node child process, shaped like Electron's UtilityProcess: what `npm start` uses where
// there is no Electron, and what the fake Electron of the tests hands out as utilityProcess.fork.
import { fork } from 'node:child_process';
import type { ServerProcess } from './server-supervisor.js';
import type { FromServer } from './server-protocol.js';

export interface NodeServerOptions {
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
}

export function forkNodeServer(entry: string, { execArgv = [], env = process.env }: NodeServerOptions = {}): ServerProcess {
  const child = fork(entry, [], { execArgv, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const adapted: ServerProcess = {
    get pid() {
      return child.pid;
    },
    stdout: child.stdout,
    stderr: child.stderr,
    postMessage: (message) => {
      if (child.connected) child.send(message);
    },
    // SIGTERM, as Electron's UtilityProcess.kill(); the server process has no handler for it, so it ends at once.
    kill: () => child.kill('SIGTERM'),
    on(event: 'spawn' | 'message' | 'exit', listener: (...args: never[]) => void) {
      if (event === 'message') child.on('message', (m) => (listener as (m: FromServer) => void)(m as FromServer));
      // 'close' rather than 'exit': by then its last output has been read too.
      else if (event === 'exit') child.on('close', (code, signal) => (listener as (c: number | null, s: string | null) => void)(code, signal));
      else child.on('spawn', listener as () => void);
      return adapted;
    },
  };
  return adapted;
}
