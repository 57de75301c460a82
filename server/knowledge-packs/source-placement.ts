// Writing imported knowledge-source files into the knowledge storage, all or nothing. Every file is checked before
// anything is written, and an existing file is replaced only when the caller says it may be. Replaced files are kept
// (in memory: sources are small text files) until the import commits. The local knowledge folder refuses to write
// through a linked folder (storage/knowledge-folder.ts), so nothing lands outside it.
import fs from 'node:fs/promises';
import { PackErrorCode } from '../../contract/knowledge-packs.js';
import { AppError } from '../http/errors.js';
import { readObject, sha256 } from '../knowledge/source-files.js';
import type { Storage } from '../storage/index.js';

export interface FileToPlace {
  /** The storage key (relative to the knowledge folder, `/` separators), already checked by isSafeSourcePath. */
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

interface Planned {
  file: FileToPlace;
  /** The content there now, to put back if the import fails; null when there is none. */
  previous: Buffer | null;
}

/** undefined: the same content is already there; otherwise the file must be written. */
async function plan(storage: Storage, file: FileToPlace, mayReplace: MayReplace): Promise<Planned | undefined> {
  const current = await readObject(storage, file.relativePath);
  if (!current) return { file, previous: null };
  const hash = sha256(current);
  if (hash === file.sha256) return undefined;
  if (!(await mayReplace(file.relativePath, hash))) throw conflict(file.relativePath, 'a different file that no earlier import of this signer placed is already there');
  return { file, previous: current };
}

async function restore(storage: Storage, written: Planned[]): Promise<void> {
  for (const w of written.reverse()) {
    await (w.previous ? storage.put(w.file.relativePath, w.previous) : storage.delete(w.file.relativePath)).catch(() => undefined);
  }
}

/** Checks every file first (409 pack_conflict, nothing written), then writes those not already there. */
export async function placeFiles(storage: Storage, files: FileToPlace[], mayReplace: MayReplace): Promise<Placement> {
  const toWrite: Planned[] = [];
  for (const file of files) {
    const planned = await plan(storage, file, mayReplace);
    if (planned) toWrite.push(planned);
  }
  const written: Planned[] = [];
  try {
    for (const planned of toWrite) {
      written.push(planned);
      await storage.put(planned.file.relativePath, await fs.readFile(planned.file.from)).catch((err: unknown) => {
        throw err instanceof AppError ? err : conflict(planned.file.relativePath, (err as Error).message);
      });
    }
  } catch (err) {
    await restore(storage, written);
    throw err;
  }
  return {
    commit: async () => undefined,
    undo: () => restore(storage, written),
  };
}
