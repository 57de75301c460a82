// The installed app ships sample knowledge sources in its resources folder, which is read-only (and replaced by
// every update), while admins scan and import packs into the knowledge folder in the data folder. At start the
// shipped files are copied there. `.shipped.json` remembers each copied file with its sha256: a file is copied
// once (deleting it keeps it deleted), and replaced by a newer shipped version only while the copy is unchanged,
// so an admin's edit is never overwritten.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

const MANIFEST = '.shipped.json';

interface Manifest {
  files: Record<string, string>;
}

const sha256 = async (file: string) => crypto.createHash('sha256').update(await fs.readFile(file)).digest('hex');

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

export async function seedKnowledgeSources(shippedDir: string, targetDir: string): Promise<SeedResult> {
  const manifestFile = path.join(targetDir, MANIFEST);
  const manifest: Manifest = await fs.readFile(manifestFile, 'utf8').then((t) => JSON.parse(t) as Manifest, () => ({ files: {} }));
  const result: SeedResult = { copied: [], updated: [] };
  for (const relative of await shippedFiles(shippedDir)) {
    const from = path.join(shippedDir, ...relative.split('/'));
    const to = path.join(targetDir, ...relative.split('/'));
    const shipped = await sha256(from);
    const known = manifest.files[relative];
    if (known === shipped) continue;
    if (known !== undefined) {
      const current = await sha256(to).catch(() => null);
      // Deleted or edited by an admin: left as it is, and the new version is not offered again.
      manifest.files[relative] = shipped;
      if (current !== known) continue;
      result.updated.push(relative);
    } else {
      if (await fs.access(to).then(() => true, () => false)) {
        manifest.files[relative] = shipped;
        continue;
      }
      result.copied.push(relative);
      manifest.files[relative] = shipped;
    }
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.copyFile(from, to);
  }
  if (result.copied.length || result.updated.length || !(await fs.access(manifestFile).then(() => true, () => false))) {
    await fs.mkdir(targetDir, { recursive: true });
    await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2));
  }
  return result;
}
