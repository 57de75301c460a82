// Whether the previous server on this data folder stopped cleanly. A running server keeps a marker file in its
// data folder and removes it once the database is checkpointed and closed; a marker found at start means that
// server was killed, crashed or lost power. SQLite then replays its write-ahead log on open, so every committed
// transaction is back; the start says so in the log.
import fs from 'node:fs';
import path from 'node:path';
import { mkdirPrivateSync, PRIVATE_FILE_MODE } from './data-dir.js';

const MARKER = 'server.running';

export interface PreviousRun {
  pid: number;
  started_at: string;
}

const markerPath = (dataDir: string) => path.join(dataDir, MARKER);

function readMarker(file: string): PreviousRun | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Partial<PreviousRun>;
    return { pid: Number(parsed.pid) || 0, started_at: String(parsed.started_at ?? '') };
  } catch {
    // Cut off while being written: still an unclean stop.
    return { pid: 0, started_at: '' };
  }
}

/** Marks this run in `dataDir`; returns the previous run when it did not stop cleanly. */
export function markRunning(dataDir: string): PreviousRun | null {
  const file = markerPath(dataDir);
  const previous = readMarker(file);
  mkdirPrivateSync(dataDir);
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, started_at: new Date().toISOString() }), { mode: PRIVATE_FILE_MODE });
  return previous;
}

/** The clean-stop mark: called last, after the database is closed. */
export function markStopped(dataDir: string): void {
  fs.rmSync(markerPath(dataDir), { force: true });
}

export function describeUncleanStop(previous: PreviousRun, sqlite: boolean): string {
  const who = previous.pid ? `the previous server (pid ${previous.pid}${previous.started_at ? `, started ${previous.started_at}` : ''})` : 'the previous server';
  const how = sqlite ? 'SQLite replayed its write-ahead log, so every committed write is kept' : 'the database is PostgreSQL, which recovers on its own';
  return `recovered from an unclean stop: ${who} did not shut down cleanly; ${how}`;
}
