// Markdown files of the knowledge storage (KNOWLEDGE_DIR, or the bucket's knowledge/ prefix). The local storage lists
// and reads only what lies inside the folder (storage/knowledge-folder.ts): a symlink leading out of it is absent.
import crypto from 'node:crypto';
import { isNotFound, type Storage } from '../storage/index.js';

/** Larger files are not read (reported as skipped): a source is read whole into memory to be parsed. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

export interface FoundFile {
  /** The storage key: relative to the knowledge folder, with `/` separators. */
  relativePath: string;
  size: number;
}

const isMarkdown = (name: string): boolean => name.toLowerCase().endsWith('.md');
/** Names starting with "." (the seed's manifest, an import's side files, an admin's hidden folders) are no sources. */
const isHidden = (key: string): boolean => key.split('/').some((segment) => segment.startsWith('.'));

/** Every `*.md` of the storage (subfolders too; hidden names skipped), sorted by relative path. */
export async function listMarkdownFiles(storage: Storage): Promise<FoundFile[]> {
  const found: FoundFile[] = [];
  for await (const object of storage.list('')) {
    if (isMarkdown(object.key) && !isHidden(object.key)) found.push({ relativePath: object.key, size: object.size });
  }
  return found.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
}

export const sha256 = (content: Buffer): string => crypto.createHash('sha256').update(content).digest('hex');

export type SourceFileRead = { state: 'ok'; content: Buffer } | { state: 'missing' } | { state: 'too_large'; size: number };

/** The whole object, or null when it is gone. */
export async function readObject(storage: Storage, key: string): Promise<Buffer | null> {
  try {
    const pieces: Buffer[] = [];
    for await (const piece of (await storage.get(key)) as AsyncIterable<Buffer>) pieces.push(piece);
    return Buffer.concat(pieces);
  } catch (err) {
    if (isNotFound(err) || ['ENOENT', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return null;
    throw err;
  }
}

/** Reads a source file again by its relative path. */
export async function readSourceFile(storage: Storage, relativePath: string): Promise<SourceFileRead> {
  try {
    if (!isMarkdown(relativePath) || isHidden(relativePath)) return { state: 'missing' };
    const info = await storage.stat(relativePath);
    if (!info) return { state: 'missing' };
    if (info.size > MAX_SOURCE_BYTES) return { state: 'too_large', size: info.size };
  } catch {
    // Not a valid key (a path no scan or import could have produced).
    return { state: 'missing' };
  }
  const content = await readObject(storage, relativePath);
  return content ? { state: 'ok', content } : { state: 'missing' };
}
