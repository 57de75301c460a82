import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { appendFileSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Knex } from 'knex';
import { openDatabase } from '../server/db/knex.js';
import { ensureAdmin } from '../server/users/bootstrap.js';
import { SERVER_HEAP_FLAGS } from '../server/heap-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  connections?: number;
  /** Seconds. */
  duration?: number;
  /** Total requests instead of a duration. */
  amount?: number;
  /** Per-request setup (autocannon `requests`), e.g. a different body each time. */
  requests?: autocannon.Request[];
  /** Seconds before a request counts as timed out (autocannon's default: 10). */
  timeout?: number;
}

export interface LoadResult {
  rps: number;
  /** From the first request to the last response. */
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const startedAt = performance.now();
  let lastResponseAt = startedAt;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(
      {
        url: options.url + options.path,
        method: options.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        connections: options.connections ?? 32,
        ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 5 }),
        requests: options.requests,
        ...(options.timeout ? { timeout: options.timeout } : {}),
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    run.on('response', () => (lastResponseAt = performance.now()));
  });
  // autocannon ends a run of a fixed amount at its next one-second sample, not at its last response: such a run's rate
  // is its responses over the time to the last one (else 2,000 requests answered in 1.9 s would read as 667/s).
  const seconds = (lastResponseAt - startedAt) / 1000;
  const rps = options.amount ? result.requests.total / seconds : result.requests.average;
  return { rps, seconds, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

export interface ChildServer {
  url: string;
  pid: number;
  /** Peak resident memory of the server process so far (VmHWM), in MB. */
  peakRssMb(): number;
  close(): Promise<void>;
}

/** A field of /proc/<pid>/status in MB (VmRSS: resident now; VmHWM: peak since start or the last resetPeakRss). */
export function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number, thread?: number): number {
  const fields = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, in clock ticks of USER_HZ (100 on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The machine's idle and total CPU time so far, in clock ticks (the first line of /proc/stat; idle includes iowait). */
export function machineTicks(): { idle: number; total: number } {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { idle: ticks[3]! + ticks[4]!, total: ticks.reduce((sum, value) => sum + value, 0) };
}

/** The share of the machine's CPU time left idle since a machineTicks reading, in percent. */
export function idleSince(before: { idle: number; total: number }): number {
  const now = machineTicks();
  return ((now.idle - before.idle) / Math.max(1, now.total - before.total)) * 100;
}

/**
 * CPU seconds so far of each of a process's threads, by thread id. Node 20 names none of them, so they are told
 * apart by age: the main thread has the process's id, V8's helpers (concurrent GC, compiling) start right after it,
 * libuv's pool (SQLite statements, file writes) at its first use.
 */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const byThread = new Map<number, number>();
  for (const thread of readdirSync(`/proc/${pid}/task`).map(Number)) {
    try {
      byThread.set(thread, cpuSeconds(pid, thread));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byThread;
}

/** CPU seconds each thread used since a threadCpuSeconds reading (a thread started since then counts from zero). */
export function threadCpuSince(pid: number, before: Map<number, number>): Map<number, number> {
  return new Map([...threadCpuSeconds(pid)].map(([thread, seconds]) => [thread, seconds - (before.get(thread) ?? 0)]));
}

/** "main 0.48, +2 0.07, …": each thread's seconds times `scale`, the main thread first, then the others by age. */
export function describeThreadCpu(pid: number, used: Map<number, number>, scale: number): string {
  return [...used]
    .sort(([a], [b]) => a - b)
    .map(([thread, seconds]) => [thread === pid ? 'main' : `+${thread - pid}`, seconds * scale] as const)
    .filter(([, value]) => value >= 0.005)
    .map(([name, value]) => `${name} ${value.toFixed(2)}`)
    .join(', ');
}

/** Starts a new peak: VmHWM drops to the current RSS (Linux clear_refs 5). */
export const resetPeakRss = (pid: number): void => writeFileSync(`/proc/${pid}/clear_refs`, '5');

/**
 * How a bench runs the real server: compiled with tsc into a scratch folder, as `npm run server` runs it (under the
 * tsx loader the same server carries some 60 MB more of transpiler state and inline source maps, and a memory figure
 * would mean little). Built once per bench run; type errors elsewhere do not stop tsc from emitting, and without an
 * emitted cli.js the server runs under tsx instead. BENCH_NODE_ARGS adds Node options (`--cpu-prof --cpu-prof-dir=…`);
 * BENCH_SERVER_STDOUT names a file that receives the server's standard output (what `--trace-gc-nvp` prints).
 */
let compiled: Promise<{ args: string[]; label: string }> | undefined;
export function serverCommand(): Promise<{ args: string[]; label: string }> {
  compiled ??= (async () => {
    // Inside the project, as dist/ is: the server finds its root (renderer, bundled programs, knowledge sources) by
    // the package.json above its modules, and its dependencies in node_modules.
    const build = await fs.mkdtemp(path.join(root, '.bench-build-'));
    process.once('exit', () => rmSync(build, { recursive: true, force: true }));
    await promisify(execFile)(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json'), '--outDir', build]).catch(() => undefined);
    const cli = path.join(build, 'server/cli.js');
    const built = await fs.stat(cli).then(() => true, () => false);
    const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const flags = [...SERVER_HEAP_FLAGS, ...extra];
    return built ? { args: [...flags, cli], label: 'compiled' } : { args: [...flags, '--import', 'tsx', 'server/cli.ts'], label: 'tsx' };
  })();
  return compiled;
}

/** Runs a server in its own Node process (so the load generator does not share its event loop) and waits for its `listening on` line. */
export async function spawnServer(args: string[], env: NodeJS.ProcessEnv): Promise<ChildServer> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    // Read to the end (a full pipe would stall the server), but only searched until the line is found.
    let out: string | undefined = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (process.env.BENCH_SERVER_STDOUT) appendFileSync(process.env.BENCH_SERVER_STDOUT, chunk);
      if (out === undefined) return;
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        out = undefined;
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(" ")} exited with ${code} before listening`)));
  });
  return {
    url,
    pid: child.pid!,
    peakRssMb: () => procStatusMb(child.pid!, 'VmHWM'),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The baseline: a bare Koa app answering a constant JSON, in its own process. */
export const startBareKoa = (): Promise<ChildServer> => spawnServer(['--import', 'tsx', 'bench/bare-koa.ts'], {});

export interface BenchServer extends ChildServer {
  /** A connection of the bench's own to the server's database (SQLite in WAL mode allows both). */
  db: Knex;
  dataDir: string;
  adminToken: string;
  login(username: string, password: string): Promise<string>;
  api<T = unknown>(method: string, path: string, token: string, body?: unknown): Promise<T>;
}

/**
 * The real server (server/cli.ts) in a child process on a fresh SQLite DATA_DIR (or DATABASE_URL), with
 * admin / bench-admin-pass. `seed` fills the database before the server starts.
 */
export async function startBenchServer(options: { seed?: (db: Knex) => Promise<void>; env?: NodeJS.ProcessEnv } = {}): Promise<BenchServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-bench-'));
  const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'bench-admin-pass', JWT_SECRET: 'bench-secret-of-the-harness', KNOWLEDGE_DIR: path.join(dataDir, 'knowledge'), ...options.env };
  const db = await openDatabase({ url: env.DATABASE_URL ?? process.env.DATABASE_URL, dataDir, schema: env.DATABASE_SCHEMA ?? process.env.DATABASE_SCHEMA });
  await ensureAdmin(db, 'admin', 'bench-admin-pass');
  await options.seed?.(db);
  const child = await spawnServer((await serverCommand()).args, env);
  const api = async <T>(method: string, p: string, token: string, body?: unknown): Promise<T> => {
    const res = await fetch(child.url + p, {
      method,
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: T; message: string };
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${json.message}`);
    return json.data;
  };
  const login = async (username: string, password: string) => (await api<{ token: string }>('POST', '/api/auth/login', '', { username, password })).token;
  return {
    ...child,
    db,
    dataDir,
    adminToken: await login('admin', 'bench-admin-pass'),
    login,
    api,
    close: async () => {
      await child.close();
      await db.destroy();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** One line of the report: the measured figures and their ratio to the baseline of the same run. */
export function report(label: string, result: LoadResult, baseline: LoadResult, target?: string): void {
  const ratio = baseline.rps ? (result.rps / baseline.rps) * 100 : 0;
  console.log(
    `${label.padEnd(44)} ${fmt(result.rps, 0).padStart(8)} req/s  p50 ${fmt(result.p50).padStart(6)} ms  p99 ${fmt(result.p99).padStart(6)} ms  ` +
      `= ${fmt(ratio)} % of baseline req/s, p99 ${fmt(baseline.p99 ? result.p99 / baseline.p99 : 0, 2)}x` +
      `${result.errors || result.non2xx ? `  errors ${result.errors} non-2xx ${result.non2xx}` : ''}${target ? `  [target ${target}]` : ''}`,
  );
}

export interface BenchContext {
  /** Bare Koa measured at the start of the run, at 32 connections. */
  baseline: LoadResult;
  bareKoa: { url: string };
  /** Measures the baseline again at another connection count (cached). */
  baselineAt(connections: number): Promise<LoadResult>;
}

/** The value at fraction `p` (0..1) of the sorted values. */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
};

/** Asks GET /api/health over and over (every 20 ms) until stopped; resolves with each answer's time in ms. */
export function probeHealth(url: string): { stop(): Promise<number[]> } {
  const times: number[] = [];
  let busy = true;
  const probing = (async () => {
    while (busy) {
      const t = performance.now();
      await fetch(`${url}/api/health`).then((r) => r.text());
      times.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      busy = false;
      await probing;
      return times;
    },
  };
}

export interface Timed {
  /** Milliseconds from sending the request to the first `data:` bytes. */
  firstEventMs: number;
  status: number;
  body: string;
}

/** POSTs JSON and reads the whole event stream, noting when the first event arrived. */
export async function timedStream(url: string, headers: Record<string, string>, body: unknown): Promise<Timed> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const decoder = new TextDecoder();
  let text = '';
  let firstEventMs = Number.NaN;
  const reader = res.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    text += decoder.decode(read.value, { stream: true });
    if (Number.isNaN(firstEventMs) && text.includes('data:')) firstEventMs = performance.now() - started;
  }
  return { firstEventMs, status: res.status, body: text };
}
