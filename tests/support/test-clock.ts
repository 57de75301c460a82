// The tests' side of the test-only clock (server/clock.ts, honoured with NODE_ENV=test only): a file holding the
// current time, named in TRAINBENCH_TEST_CLOCK_FILE for the servers in this process (and, through `env`, for server
// processes a test starts). Each move replaces the file whole, so a server never reads a half-written time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class TestClock {
  private constructor(
    private readonly dir: string,
    readonly file: string,
    private at: number | undefined,
  ) {}

  /**
   * A clock honoured from here on by the servers of this process: stopped at `start`, or without one the real clock
   * until the first move.
   */
  static start(start?: number | Date): TestClock {
    if (process.env.NODE_ENV !== 'test') throw new Error('the test clock needs NODE_ENV=test (tests/run.mjs sets it)');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-clock-'));
    const clock = new TestClock(dir, path.join(dir, 'now'), undefined);
    if (start !== undefined) clock.set(start);
    process.env.TRAINBENCH_TEST_CLOCK_FILE = clock.file;
    return clock;
  }

  /** The clock's time in milliseconds (the real time until it is first set). */
  get ms(): number {
    return this.at ?? Date.now();
  }

  get date(): Date {
    return new Date(this.ms);
  }

  /** For a server started as a process of its own. */
  get env(): Record<string, string> {
    return { TRAINBENCH_TEST_CLOCK_FILE: this.file };
  }

  set(at: number | Date): void {
    this.at = typeof at === 'number' ? at : at.getTime();
    const next = `${this.file}.next`;
    fs.writeFileSync(next, new Date(this.at).toISOString());
    fs.renameSync(next, this.file);
  }

  advance(ms: number): void {
    this.set(this.ms + ms);
  }

  /** Back to the real clock. */
  stop(): void {
    if (process.env.TRAINBENCH_TEST_CLOCK_FILE === this.file) delete process.env.TRAINBENCH_TEST_CLOCK_FILE;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
