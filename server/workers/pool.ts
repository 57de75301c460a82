// One pool of worker threads (piscina) for CPU-heavy work on large inputs — a 20,000-segment transcript's figures,
// export, inspection — so that the event loop keeps answering every other request meanwhile. The tasks are the
// functions of heavy-tasks.ts; a small input runs them inline, where a thread's round trip would cost more than it
// saves. The threads start on first use and end after a minute idle; an idle pool does not keep the process alive.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import runHeavyTask, { type HeavyInput, type HeavyOutput, type HeavyTask } from './heavy-tasks.js';

/** From this many segments a transcript's heavy work goes to a thread (a one-hour call is about 1,500). */
export const LARGE_TRANSCRIPT_SEGMENTS = 2_000;

const IDLE_MS = 60_000;

let pool: Piscina | null = null;

function heavyPool(): Piscina {
  if (pool) return pool;
  const here = fileURLToPath(import.meta.url);
  const ext = path.extname(here);
  pool = new Piscina({
    // From source the thread needs tsx's loader, which a worker does not inherit: a module of plain JavaScript
    // registers it first (heavy-tasks.source.mjs).
    filename: path.join(path.dirname(here), ext === '.ts' ? 'heavy-tasks.source.mjs' : 'heavy-tasks.js'),
    execArgv: [],
    minThreads: 0,
    maxThreads: Math.max(1, Math.min(4, os.availableParallelism() - 1)),
    idleTimeout: IDLE_MS,
  });
  return pool;
}

/** Runs the task in a worker thread when `large`, else inline; the same result either way. */
export async function offload<N extends HeavyTask>(name: N, input: HeavyInput<N>, large: boolean): Promise<HeavyOutput<N>> {
  if (!large) return await runHeavyTask({ name, input });
  return (await heavyPool().run({ name, input })) as HeavyOutput<N>;
}

/** Ends the threads (tests and a server's close; the next task starts new ones). */
export async function closeHeavyPool(): Promise<void> {
  const ending = pool;
  pool = null;
  await ending?.destroy();
}
