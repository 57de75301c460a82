// A worker thread from a module beside the caller: `<name>.js` once built, `<name>.ts` from source, where the thread
// registers tsx's loader before importing it (a worker does not inherit the parent's loader hooks).
import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';

export function startThread(callerUrl: string, name: string, resourceLimits?: ResourceLimits): Worker {
  const here = fileURLToPath(callerUrl);
  const ext = path.extname(here);
  const file = path.join(path.dirname(here), `${name}${ext}`);
  if (ext !== '.ts') return new Worker(file, { resourceLimits });
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(file).href)}); })`;
  return new Worker(bootstrap, { resourceLimits, eval: true });
}
