// Writing imported knowledge-source files into KNOWLEDGE_DIR, all or nothing. Every path is checked before anything
// is written: no component may be a symlink (so nothing can land outside the directory), and an existing file is
// replaced only when the caller says it may be. Replaced files are kept aside until the import commits.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PackErrorCode } from '../../contract/knowledge-packs.js';
import { AppError } from '../http/errors.js';
import { sha256File } from './pack-file.js';

export interface FileToPlace {
  /** Relative to the root, `/` separators, already checked by isSafeSourcePath. */
  relativePath: string;
  /** The verified file in the unpacked pack. */
  from: string;
  sha256: string;
}

/** Whether an existing, different file at relativePath (whose content hashes to sha256) may be replaced. */
export type MayReplace = (relativePath: string, sha256: string) => Promise<boolean>;

export interface Placement {
  /** The import committed: drop the replaced files. */
  commit(): Promise<void>;
  /** The import failed: put everything back as it was. */
  undo(): Promise<void>;
}

const conflict = (relativePath: string, why: string) =>
  new AppError(409, PackErrorCode.conflict, `Cannot import ${relativePath} into the knowledge directory: ${why}. Nothing was imported.`);

async function lstatOrNull(target: string) {
  return fs.lstat(target).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
}

/** Folders below root along the path must be real folders (or not exist yet). */
async function checkFolders(root: string, relativePath: string): Promise<void> {
  const segments = relativePath.split('/').slice(0, -1);
  for (let i = 1; i <= segments.length; i++) {
    const stat = await lstatOrNull(path.join(root, ...segments.slice(0, i)));
    if (!stat) return;
    if (!stat.isDirectory()) throw conflict(relativePath, `${segments.slice(0, i).join('/')} is a link or not a folder`);
  }
}

/** true: the same content is already there; false: the file must be written. */
async function alreadyThere(root: string, file: FileToPlace, mayReplace: MayReplace): Promise<boolean> {
  await checkFolders(root, file.relativePath);
  const target = path.join(root, ...file.relativePath.split('/'));
  const stat = await lstatOrNull(target);
  if (!stat) return false;
  if (!stat.isFile()) throw conflict(file.relativePath, 'something other than a plain file is in the way');
  const current = (await sha256File(target)).sha256;
  if (current === file.sha256) return true;
  if (!(await mayReplace(file.relativePath, current))) throw conflict(file.relativePath, 'a different file that no earlier import of this signer placed is already there');
  return false;
}

/** Creates the missing folders of a path; returns those it created, deepest first. */
async function makeFolders(root: string, relativePath: string): Promise<string[]> {
  const created: string[] = [];
  const segments = relativePath.split('/').slice(0, -1);
  for (let i = 1; i <= segments.length; i++) {
    const folder = path.join(root, ...segments.slice(0, i));
    try {
      await fs.mkdir(folder);
      created.unshift(folder);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !(await fs.lstat(folder)).isDirectory()) throw err;
    }
  }
  return created;
}

interface Written {
  target: string;
  /** Where the file that was at target waits, while the import may still fail. */
  backup: string | null;
  /** The new file is at target. */
  placed: boolean;
  folders: string[];
}

async function restore(written: Written[]): Promise<void> {
  for (const w of written.reverse()) {
    if (w.placed && !w.backup) await fs.rm(w.target, { force: true });
    if (w.backup) await fs.rename(w.backup, w.target).catch(() => undefined);
    // Only if empty: another import may have put files there meanwhile.
    for (const folder of w.folders) await fs.rmdir(folder).catch(() => undefined);
  }
}

/** Hidden names (leading dot): the scan skips them while they exist. */
const sideName = (target: string, kind: 'tmp' | 'bak') => path.join(path.dirname(target), `.${path.basename(target)}.${crypto.randomUUID()}.${kind}`);

/**
 * Checks every file first (409 pack_conflict, nothing written), then writes those not already there, each through a
 * temporary file renamed into place.
 */
export async function placeFiles(root: string, files: FileToPlace[], mayReplace: MayReplace): Promise<Placement> {
  const toWrite: FileToPlace[] = [];
  for (const file of files) if (!(await alreadyThere(root, file, mayReplace))) toWrite.push(file);

  const written: Written[] = [];
  if (toWrite.length) await fs.mkdir(root, { recursive: true });
  try {
    for (const file of toWrite) {
      const target = path.join(root, ...file.relativePath.split('/'));
      const entry: Written = { target, backup: null, placed: false, folders: await makeFolders(root, file.relativePath) };
      written.push(entry);
      const temp = sideName(target, 'tmp');
      try {
        await fs.copyFile(file.from, temp);
        if (await lstatOrNull(target)) {
          entry.backup = sideName(target, 'bak');
          await fs.rename(target, entry.backup);
        }
        await fs.rename(temp, target);
        entry.placed = true;
      } finally {
        await fs.rm(temp, { force: true });
      }
    }
  } catch (err) {
    await restore(written);
    throw err;
  }
  return {
    commit: async () => {
      await Promise.all(written.map((w) => w.backup && fs.rm(w.backup, { force: true })));
    },
    undo: () => restore(written),
  };
}
