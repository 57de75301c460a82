// What the page cache holds of a file, to check that bytes written around it (O_DIRECT) really are.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { openDirect } from '../../server/media/media.direct-io.js';

/** How much of a file is in the page cache, in bytes (util-linux's fincore). */
export async function cachedBytes(file: string): Promise<number> {
  const { stdout } = await promisify(execFile)('fincore', ['--bytes', '--noheadings', '--output', 'RES', file]);
  return Number(stdout.trim());
}

/** Whether this folder's file system takes O_DIRECT (ext4 and most disks do; some memory file systems do not). */
export async function takesDirectWrites(folder: string): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  await fs.mkdir(folder, { recursive: true });
  const probe = path.join(folder, `direct-probe-${process.pid}`);
  const handle = await openDirect(probe);
  await handle?.close();
  await fs.rm(probe, { force: true });
  return handle !== undefined;
}
