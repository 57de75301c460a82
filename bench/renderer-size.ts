// The renderer's initial JavaScript: the entry chunk and every chunk it imports statically, as Vite's manifest
// lists them (dynamic imports, the lazily loaded pages and languages, are not part of it).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export const INITIAL_JS_BUDGET_GZIP = 250 * 1024;

export interface BundleSizes {
  /** Files of the initial load, with their gzip sizes. */
  initial: { file: string; gzip: number }[];
  initialGzip: number;
  /** Every other JS chunk (loaded on demand), largest first. */
  lazy: { file: string; gzip: number }[];
}

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

export function bundleSizes(distDir: string): BundleSizes {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const initialKeys = new Set<string>();
  const visit = (key: string) => {
    if (initialKeys.has(key)) return;
    initialKeys.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const sized = (keys: string[]) => keys.map((key) => ({ file: manifest[key]!.file, gzip: gzipSize(path.join(distDir, manifest[key]!.file)) }));
  const initial = sized([...initialKeys]).sort((a, b) => b.gzip - a.gzip);
  const lazy = sized(Object.keys(manifest).filter((key) => !initialKeys.has(key) && manifest[key]!.file.endsWith('.js'))).sort((a, b) => b.gzip - a.gzip);
  return { initial, initialGzip: initial.reduce((sum, f) => sum + f.gzip, 0), lazy };
}
