// This node's lasting name: generated once into DATA_DIR/node-id. Work a node records as its own (a workbench run in
// progress) is known to be orphaned when that node starts again, whichever other nodes share the database.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { mkdirPrivateSync, PRIVATE_FILE_MODE } from './data-dir.js';

export function nodeId(dataDir: string): string {
  const file = path.join(dataDir, 'node-id');
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored) return stored;
  } catch {
    // First start on this folder.
  }
  mkdirPrivateSync(dataDir);
  const id = crypto.randomUUID();
  fs.writeFileSync(file, id, { mode: PRIVATE_FILE_MODE });
  return id;
}
