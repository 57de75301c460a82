// The installed app ships sample knowledge sources in its resources folder, which is read-only (and replaced by
// every update), while admins scan and import packs into the knowledge folder in the data folder. At start the
// shipped files are copied there. `.shipped.json` remembers each copied file with its sha256: a file is copied
// once (deleting it keeps it deleted), and replaced by a newer shipped version only while the copy is unchanged,
// so an admin's edit is never overwritten.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from '../storage/index.js';
import { readObject } from './source-files.js';

const MANIFEST = '.shipped.json';

interface Manifest {
  files: Record<string, string>;
}

const sha256 = (content: Buffer) => crypto.createHash('sha256').update(content).digest('hex');

async function shippedFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await fs.readdir(path.join(dir, prefix), { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await shippedFiles(dir, relative)));
    else if (entry.isFile()) found.push(relative);
  }
  return found;
}

export interface SeedResult {
  copied: string[];
  updated: string[];
}

/** Into the knowledge storage (the knowledge folder, or the bucket's knowledge/ prefix); safe to run on several nodes at once. */
export async function seedKnowledgeSources(shippedDir: string, target: Storage): Promise<SeedResult> {
  const stored = await readObject(target, MANIFEST);
  const manifest: Manifest = stored ? (JSON.parse(stored.toString('utf8')) as Manifest) : { files: {} };
  const result: SeedResult = { copied: [], updated: [] };
  for (const relative of await shippedFiles(shippedDir)) {
    const content = await fs.readFile(path.join(shippedDir, ...relative.split('/')));
    const shipped = sha256(content);
    const known = manifest.files[relative];
    if (known === shipped) continue;
    if (known !== undefined) {
      const current = await readObject(target, relative);
      // Deleted or edited by an admin: left as it is, and the new version is not offered again.
      manifest.files[relative] = shipped;
      if (!current || sha256(current) !== known) continue;
      result.updated.push(relative);
    } else {
      manifest.files[relative] = shipped;
      if (await target.stat(relative)) continue;
      result.copied.push(relative);
    }
    await target.put(relative, content);
  }
  if (result.copied.length || result.updated.length || !stored) await target.put(MANIFEST, JSON.stringify(manifest, null, 2));
  return result;
}
