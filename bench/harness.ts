import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import autocannon from 'autocannon';
import { configFromEnv } from '../server/config.js';
import { startServer, type RunningServer } from '../server/start.js';

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
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url + options.path,
    method: options.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    connections: options.connections ?? 32,
    duration: options.amount ? undefined : (options.duration ?? 5),
    amount: options.amount,
    requests: options.requests,
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

/** The baseline: a bare Koa app answering a constant JSON, served in the same process. */
export async function startBareKoa(): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = { data: { ok: true }, error: null, message: 'success' };
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface BenchServer extends RunningServer {
  dataDir: string;
  adminToken: string;
  login(username: string, password: string): Promise<string>;
  api<T = unknown>(method: string, path: string, token: string, body?: unknown): Promise<T>;
}

/** The real server on a fresh SQLite DATA_DIR (or DATABASE_URL), with admin / bench-admin-pass. */
export async function startBenchServer(): Promise<BenchServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-bench-'));
  const server = await startServer(
    configFromEnv({ ...process.env, JWT_SECRET: 'bench-secret' }, { dataDir, port: 0, host: '127.0.0.1', adminPassword: 'bench-admin-pass', knowledgeDir: path.join(dataDir, 'knowledge') }),
  );
  const api = async <T>(method: string, p: string, token: string, body?: unknown): Promise<T> => {
    const res = await fetch(server.url + p, {
      method,
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: T; message: string };
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${json.message}`);
    return json.data;
  };
  const login = async (username: string, password: string) => (await api<{ token: string }>('POST', '/api/auth/login', '', { username, password })).token;
  const adminToken = await login('admin', 'bench-admin-pass');
  return Object.assign(server, {
    dataDir,
    adminToken,
    login,
    api,
    close: async () => {
      await server.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  });
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
