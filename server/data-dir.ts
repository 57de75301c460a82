// DATA_DIR holds password hashes, exam records, uploaded material and per-install secrets: only the account that runs
// Trainbench may read it. Folders are created 0700 and files 0600 by the code that writes them (no process-wide
// umask: the Electron main process shares its umask with Chromium); an existing folder is tightened at start.
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** Permission bits that let another account read, write or enter. */
const OTHERS = 0o077;

/** POSIX permissions mean nothing on Windows (its ACLs are inherited from the user's profile folder). */
const posix = process.platform !== 'win32';

/** Creates a folder (and missing parents) readable by the owner only; an existing one is left as it is. */
export function mkdirPrivateSync(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export async function mkdirPrivate(dir: string): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * A file only its owner can read: created empty with mode 0600 when `create` is set and it is missing, tightened when
 * it exists with looser permissions.
 */
export function keepFilePrivate(file: string, create: boolean): void {
  let fd: number;
  try {
    fd = fs.openSync(file, create ? fs.constants.O_RDONLY | fs.constants.O_CREAT : fs.constants.O_RDONLY, PRIVATE_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    if (posix && fs.fstatSync(fd).mode & OTHERS) fs.fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    fs.closeSync(fd);
  }
}

/** Takes group and other permissions off everything below `dir` (symlinks are not followed). */
function tightenTree(dir: string): number {
  let changed = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const full = path.join(dir, entry.name);
    const mode = fs.lstatSync(full).mode & 0o777;
    if (mode & OTHERS) {
      fs.chmodSync(full, mode & ~OTHERS);
      changed++;
    }
    if (entry.isDirectory()) changed += tightenTree(full);
  }
  return changed;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/**
 * Makes sure DATA_DIR exists and only its owner can read it. A folder that others could read (made by an earlier
 * version, or by hand) is set to 0700 and whatever it holds loses its group and other permissions, once; `log` says so.
 */
export function preparePrivateDataDir(dataDir: string, log: (message: string) => void): void {
  mkdirPrivateSync(dataDir);
  if (!posix) return;
  const mode = fs.statSync(dataDir).mode;
  if (!(mode & OTHERS)) return;
  fs.chmodSync(dataDir, PRIVATE_DIR_MODE);
  const inside = tightenTree(dataDir);
  log(`DATA_DIR ${dataDir} was readable by other accounts (mode ${octal(mode)}): tightened to 0700, and ${inside} file(s) and folder(s) inside to owner-only`);
}
