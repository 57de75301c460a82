// A child process from a module beside the caller: `<name>.js` once built, `<name>.ts` from source (run with tsx's
// loader). For native code that may end its own process (sherpa-onnx calls _Exit on some malformed models): a crash
// there ends the child, never the server.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function startChild(callerUrl: string, name: string): ChildProcess {
  const here = fileURLToPath(callerUrl);
  const ext = path.extname(here);
  const file = path.join(path.dirname(here), `${name}${ext}`);
  const execArgv = ext === '.ts' ? ['--import', 'tsx'] : [];
  return fork(file, [], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
}
