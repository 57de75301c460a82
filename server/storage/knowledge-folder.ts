// The knowledge folder (KNOWLEDGE_DIR) as a storage: an admin drops Markdown files into it, so unlike DATA_DIR it may
// hold symlinks. Only what lies inside the folder once links are resolved is listed or read; a link (or a path)
// leading out of it is treated as absent, and nothing is written through a linked folder.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { LocalStorage } from './local.js';
import { checkKey, StorageNotFound, type Body, type ByteRange, type ObjectInfo, type PutOptions } from './storage.js';

const isInside = (root: string, target: string): boolean => {
  const rel = path.relative(root, target);
  return rel !== '' && !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
};

const realPathOrNull = (target: string) => fs.realpath(target).catch(() => null);

export class KnowledgeFolderStorage extends LocalStorage {
  /** The real file of a key when it lies inside the folder, else null. */
  private async contained(key: string): Promise<string | null> {
    const [root, real] = await Promise.all([realPathOrNull(this.root), realPathOrNull(this.pathOf(key))]);
    return root && real && isInside(root, real) ? real : null;
  }

  /** Folders along the key must be real folders (or not exist yet): a write never follows a link. */
  private async checkFolders(key: string): Promise<void> {
    const segments = checkKey(key).split('/').slice(0, -1);
    for (let i = 1; i <= segments.length; i++) {
      const stat = await fs.lstat(path.join(this.root, ...segments.slice(0, i))).catch(() => null);
      if (!stat) return;
      if (!stat.isDirectory()) throw new Error(`${segments.slice(0, i).join('/')} is a link or not a folder`);
    }
  }

  override async put(key: string, body: Body, options?: PutOptions): Promise<ObjectInfo> {
    await this.checkFolders(key);
    return super.put(key, body, options);
  }

  override async putFile(key: string, file: string, options?: PutOptions & { move?: boolean }): Promise<ObjectInfo> {
    await this.checkFolders(key);
    return super.putFile(key, file, options);
  }

  override async stat(key: string): Promise<ObjectInfo | undefined> {
    return (await this.contained(key)) ? super.stat(key) : undefined;
  }

  override async get(key: string, range?: ByteRange): Promise<Readable> {
    if (!(await this.contained(key))) throw new StorageNotFound(key);
    return super.get(key, range);
  }

  override async *list(prefix: string): AsyncIterable<ObjectInfo> {
    const root = await realPathOrNull(this.root);
    if (!root) return;
    // Real paths of the folders walked, so a link to a parent folder cannot loop.
    const visited = new Set<string>([root]);
    const self = this;
    async function* walk(dirKey: string): AsyncIterable<ObjectInfo> {
      const dir = dirKey ? self.pathOf(dirKey) : self.root;
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const key = dirKey ? `${dirKey}/${entry.name}` : entry.name;
        // Writes in progress and local multipart parts (local.ts).
        if (entry.name.includes('.tmp-') || key === '.multipart') continue;
        const real = await realPathOrNull(path.join(dir, entry.name));
        if (!real || !isInside(root!, real)) continue;
        const stat = await fs.stat(real).catch(() => null);
        if (stat?.isDirectory()) {
          if (visited.has(real) || !(key.startsWith(prefix) || prefix.startsWith(`${key}/`))) continue;
          visited.add(real);
          yield* walk(key);
        } else if (stat?.isFile() && key.startsWith(prefix)) {
          yield { key, size: stat.size, etag: `${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}`, mtime: stat.mtime };
        }
      }
    }
    yield* walk('');
  }

  override async withLocalCopy<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    const real = await this.contained(key);
    if (!real || !(await super.stat(key))) throw new StorageNotFound(key);
    return fn(real);
  }
}
