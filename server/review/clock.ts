// What time it is for spaced review. Tests move it: with NODE_ENV=test (and only then), the file named by
// TRAINBENCH_TEST_CLOCK_FILE, when it exists, holds the current time as an ISO string. Production never reads it.
import fs from 'node:fs';

export function reviewNow(): Date {
  const file = process.env.NODE_ENV === 'test' ? process.env.TRAINBENCH_TEST_CLOCK_FILE : undefined;
  if (file) {
    try {
      const at = Date.parse(fs.readFileSync(file, 'utf8').trim());
      if (!Number.isNaN(at)) return new Date(at);
    } catch {
      // no file: the real clock
    }
  }
  return new Date();
}
