// Issue 10: how soon the server answers after its process starts, on a database of 100,000 rows (target < 500
// ms), as it ships (compiled, plain Node): the headless server (`listening on`) and the desktop path (main's
// supervisor forking server-host.js and waiting for `server-started`). Baselines in the same run: Node starting
// and printing a line, and the same server on an empty database. Medians of 7 starts after one warm-up. Besides the
// wall time, the CPU time the process used until ready (Linux: /proc), which a busy machine inflates far less.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildWhatIsMissing, SERVER_AND_MAIN } from '../main/launcher/build-steps.js';
import { openDatabase } from '../server/db/knex.js';
import { ensureAdmin } from '../server/users/bootstrap.js';
import { configFromEnv } from '../server/config.js';
import { silentLogger } from '../server/log/logger.js';
import { ServerSupervisor } from '../main/server-supervisor.js';
import { forkNodeServer } from '../main/node-server-process.js';
import { random, seedChunks, vocabulary } from './knowledge.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STARTS = 7;
const ROWS = 100_000;

interface Timing {
  ms: number;
  /** CPU ms (user + system) the process had used by then; NaN where /proc is not there. */
  cpu: number;
}

function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** ms from spawning `args` until a stdout line matches `ready`, and the output until then; the process is then stopped. */
function timeToLine(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<Timing & { output: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let found: (Timing & { output: string }) | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!found && out.split('\n').some((l) => ready.test(l))) {
        found = { ms: performance.now() - started, cpu: cpuMs(child.pid), output: out };
        child.kill('SIGTERM');
      }
    });
    child.once('exit', () => (found ? resolve(found) : reject(new Error(`exited before ${ready}: ${out}`))));
  });
}

async function desktopStart(dataDir: string): Promise<Timing> {
  const config = configFromEnv({ ...process.env, JWT_SECRET: 'bench-startup-secret' }, { dataDir, host: '127.0.0.1', port: 0, adminPassword: 'bench-admin-pass', knowledgeDir: path.join(dataDir, 'knowledge') });
  let pid: number | undefined;
  const fork = () => {
    const child = forkNodeServer(path.join(root, 'dist/main/server-host.js'));
    pid = child.pid;
    return child;
  };
  const supervisor = new ServerSupervisor({ fork, config, log: silentLogger });
  const started = performance.now();
  await supervisor.start();
  const timing = { ms: performance.now() - started, cpu: cpuMs(pid) };
  await supervisor.stop();
  return timing;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function repeat(measure: () => Promise<Timing>): Promise<Timing> {
  await measure();
  const timings: Timing[] = [];
  for (let i = 0; i < STARTS; i++) timings.push(await measure());
  return { ms: median(timings.map((t) => t.ms)), cpu: median(timings.map((t) => t.cpu)) };
}

export default async function startup(): Promise<void> {
  if (!buildWhatIsMissing(root, [SERVER_AND_MAIN], (line) => console.log(`  ${line}`))) throw new Error('the build failed');
  const dirs = { empty: await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-bench-startup-')), full: await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-bench-startup-')) };
  try {
    for (const [name, dir] of Object.entries(dirs)) {
      const db = await openDatabase({ dataDir: dir });
      await ensureAdmin(db, 'admin', 'bench-admin-pass');
      if (name === 'full') {
        const rand = random(42);
        await seedChunks(db, vocabulary(rand), rand);
      }
      const rows = (await db.raw("SELECT SUM(n) AS rows FROM (SELECT COUNT(*) AS n FROM knowledge_chunks UNION ALL SELECT COUNT(*) FROM users)"))[0].rows as number;
      await db.destroy();
      if (name === 'full' && rows < ROWS) throw new Error(`seeded ${rows} rows, expected ${ROWS}`);
    }
    const size = (await fs.stat(path.join(dirs.full, 'trainbench.sqlite'))).size;

    const env = (dir: string) => ({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', JWT_SECRET: 'bench-startup-secret', KNOWLEDGE_DIR: path.join(dir, 'knowledge') });
    const listening = /^listening on /;
    // Node's own start, to the same line, kept alive until it is read (as the servers are).
    const node = await repeat(() => timeToLine(['-e', 'console.log("listening on node"); setTimeout(() => {}, 60_000)'], {}, listening));
    const empty = await repeat(() => timeToLine(['dist/server/cli.js'], env(dirs.empty), listening));
    const insides: number[] = [];
    const full = await repeat(async () => {
      const started = await timeToLine(['dist/server/cli.js'], env(dirs.full), listening);
      insides.push(Number(/ in (\d+) ms from process start/.exec(started.output)?.[1] ?? NaN));
      return started;
    });
    const inside = median(insides.slice(1));
    const desktop = await repeat(() => desktopStart(dirs.full));

    console.log(`  database: ${ROWS.toLocaleString('en')} knowledge chunks (+ their full-text index), ${(size / 1024 / 1024).toFixed(0)} MB`);
    const line = (label: string, t: Timing, extra = '') =>
      console.log(`${label.padEnd(46)} ${t.ms.toFixed(0).padStart(6)} ms wall ${t.cpu.toFixed(0).padStart(6)} ms CPU${extra}`);
    line('node -e (Node starting, baseline)', node);
    line('server ready, empty database', empty);
    line('server ready, 100,000 rows (npm run server)', full, `  (${inside} ms by the server's own clock)  = ${(full.ms / empty.ms).toFixed(2)}x the empty database; ${(full.ms / node.ms).toFixed(1)}x bare Node wall, ${(full.cpu / node.cpu).toFixed(1)}x CPU  [target < 500 ms]`);
    line('desktop: fork to server-started, 100,000 rows', desktop, `  = ${(desktop.ms / empty.ms).toFixed(2)}x the empty database  [target < 500 ms]`);
  } finally {
    for (const dir of Object.values(dirs)) await fs.rm(dir, { recursive: true, force: true });
  }
}
