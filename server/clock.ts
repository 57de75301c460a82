// What time it is for the domains whose tests move time: assignments (due dates, overdue, reminders) and spaced
// review (due cards). The real clock, except with NODE_ENV=test (and only then): the file named by
// TRAINBENCH_TEST_CLOCK_FILE, when it exists, holds the current time as an ISO string. A file is what reaches every
// server a test runs, in its own process (tests/support/test-clock.ts writes it). Production never reads it.
import fs from 'node:fs';

const TESTING = process.env.NODE_ENV === 'test';

/** Milliseconds since the epoch, now. */
export function nowMs(): number {
  const file = TESTING ? process.env.TRAINBENCH_TEST_CLOCK_FILE : undefined;
  if (file) {
    try {
      const at = Date.parse(fs.readFileSync(file, 'utf8').trim());
      if (!Number.isNaN(at)) return at;
    } catch {
      // no file: the real clock
    }
  }
  return Date.now();
}

export const nowDate = (): Date => new Date(nowMs());
