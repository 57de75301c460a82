// Markdown files of the knowledge directory. Only files whose real path lies inside the directory are ever
// listed or read: a symlink (or a path) leading out of it is ignored, whether found by the scan or at approve.
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';

/** Larger files are not read (reported as skipped): a source is read whole into memory to be parsed. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

export interface FoundFile {
  /** Relative to the knowledge directory, with `/` separators. */
  relativePath: string;
  realPath: string;
  size: number;
}

const isInside = (root: string, target: string): boolean => {
  const rel = path.relative(root, target);
  return rel !== '' && !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
};

async function realPathOrNull(target: string): Promise<string | null> {
  try {
    return await fs.realpath(target);
  } catch {
    return null;
  }
}

const isMarkdown = (name: string): boolean => name.toLowerCase().endsWith('.md');

/** Every `*.md` below root (subfolders too; names starting with "." skipped), sorted by relative path. */
export async function listMarkdownFiles(root: string): Promise<FoundFile[]> {
  const realRoot = await realPathOrNull(root);
  if (!realRoot) return [];
  const found: FoundFile[] = [];
  // Real paths of the folders walked, so a symlink to a parent folder cannot loop.
  const visited = new Set<string>([realRoot]);

  async function walk(dir: string): Promise<void> {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      const real = await realPathOrNull(full);
      if (!real || !isInside(realRoot!, real)) continue;
      const stat = await fs.stat(real).catch(() => null);
      if (stat?.isDirectory()) {
        if (visited.has(real)) continue;
        visited.add(real);
        await walk(full);
      } else if (stat?.isFile() && isMarkdown(entry.name)) {
        found.push({ relativePath: path.relative(root, full).split(path.sep).join('/'), realPath: real, size: stat.size });
      }
    }
  }

  await walk(root);
  return found.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
}

export const sha256 = (content: Buffer): string => crypto.createHash('sha256').update(content).digest('hex');

export type SourceFileRead = { state: 'ok'; content: Buffer } | { state: 'missing' } | { state: 'too_large'; size: number };

/** Reads a source file again by its relative path, with the same containment rule as the scan. */
export async function readSourceFile(root: string, relativePath: string): Promise<SourceFileRead> {
  const realRoot = await realPathOrNull(root);
  const real = realRoot && (await realPathOrNull(path.join(root, ...relativePath.split('/'))));
  if (!real || !isInside(realRoot!, real) || !isMarkdown(relativePath)) return { state: 'missing' };
  const stat = await fs.stat(real).catch(() => null);
  if (!stat?.isFile()) return { state: 'missing' };
  if (stat.size > MAX_SOURCE_BYTES) return { state: 'too_large', size: stat.size };
  try {
    return { state: 'ok', content: await fs.readFile(real) };
  } catch {
    return { state: 'missing' };
  }
}
