// Issue 4 benchmark (1): chunked upload of a 1 GiB file over loopback against `dd` writing 1 GiB to the same disk
// in the same run (target >= 70 % of dd's throughput), and the server's peak RSS (target < 200 MB). The server runs
// in a child process so that its memory is its own, compiled as it ships (tsc to a scratch folder): under the tsx
// loader the same server carries some 60 MB more of transpiler state and inline source maps.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './harness.js';

const GIB = 1024 ** 3;
const CHUNK = 5_242_880;
/** Chunks in flight at once, as a browser-side uploader would do. */
const PARALLEL = 2;
const ADMIN_PASSWORD = 'bench-admin-pass';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface ChildServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The server compiled with tsc into scratch/build (a node_modules link next to it resolves the dependencies).
 * Type errors elsewhere do not stop tsc from emitting; without an emitted cli.js the server runs under tsx instead.
 */
async function serverCommand(scratch: string): Promise<{ args: string[]; label: string }> {
  const build = path.join(scratch, 'build');
  await fs.symlink(path.join(root, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
  await promisify(execFile)(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json'), '--outDir', build]).catch(() => undefined);
  const cli = path.join(build, 'server/cli.js');
  const built = await fs.stat(cli).then(() => true, () => false);
  return built ? { args: [cli], label: 'compiled' } : { args: ['--import', 'tsx', 'server/cli.ts'], label: 'tsx' };
}

async function startChildServer(args: string[], dataDir: string): Promise<ChildServer> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      KNOWLEDGE_DIR: path.join(dataDir, 'knowledge'),
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_PASSWORD,
      JWT_SECRET: 'bench-media-secret',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (data: Buffer) => {
      out += data.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening: ${out}`)));
  });
  child.stdout!.resume();
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, process: child, stop };
}

async function api<T>(url: string, method: string, token: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: JSON.stringify(body) });
  const json = (await res.json()) as { data: T; message: string };
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${json.message}`);
  return json.data;
}

/** A boundary as Chromium (the Electron renderer) makes them: the parser's speed depends on its characters. */
const browserBoundary = () => `----WebKitFormBoundary${crypto.randomBytes(12).toString('base64').replace(/[+/]/g, 'x')}`;

/** The two ways a chunk can be sent: the spec's multipart form, or the raw body with the fields in the query. */
type Encoding = 'multipart' | 'raw';

interface ChunkRequest {
  path: string;
  contentType: string;
  parts: Buffer[];
}

function chunkRequest(encoding: Encoding, uploadId: string, index: number, data: Buffer): ChunkRequest {
  if (encoding === 'raw') {
    return { path: `/api/media/upload/chunk?upload_id=${uploadId}&chunk_index=${index}`, contentType: 'application/octet-stream', parts: [data] };
  }
  const boundary = browserBoundary();
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = field('upload_id', uploadId) + field('chunk_index', String(index)) +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="chunk"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { path: '/api/media/upload/chunk', contentType: `multipart/form-data; boundary=${boundary}`, parts: [Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)] };
}

/** One chunk written straight to a keep-alive socket (the client must not be the bottleneck). */
function postChunk(url: string, agent: http.Agent, token: string, chunk: ChunkRequest): Promise<void> {
  const length = chunk.parts.reduce((sum, part) => sum + part.length, 0);
  return new Promise((resolve, reject) => {
    const req = http.request(url + chunk.path, { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': chunk.contentType, 'content-length': length } });
    req.on('response', (res) => {
      const body: Buffer[] = [];
      res.on('data', (part: Buffer) => body.push(part));
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${chunk.path}: ${res.statusCode} ${Buffer.concat(body)}`))));
    });
    req.on('error', reject);
    for (const part of chunk.parts) req.write(part);
    req.end();
  });
}

interface UploadTiming {
  seconds: number;
  completeSeconds: number;
}

/** init, every chunk (PARALLEL at a time), complete: the whole upload as a client sees it, in seconds (and complete's share). */
async function chunkedUpload(url: string, token: string, size: number, encoding: Encoding): Promise<UploadTiming> {
  const block = crypto.randomBytes(CHUNK);
  const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL });
  const started = process.hrtime.bigint();
  const session = await api<{ upload_id: string; chunk_count: number }>(`${url}/api/media/upload/init`, 'POST', token, { filename: 'bench.mp4', file_size: size, bind_type: 'none' });
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < session.chunk_count; index = next++) {
      // Distinct content per chunk without holding more than one block per worker.
      const data = Buffer.from(block.subarray(0, Math.min(CHUNK, size - index * CHUNK)));
      data.writeUInt32BE(index, 0);
      await postChunk(url, agent, token, chunkRequest(encoding, session.upload_id, index, data));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const chunksDone = process.hrtime.bigint();
  const media = await api<{ size: number }>(`${url}/api/media/upload/complete`, 'POST', token, { upload_id: session.upload_id });
  const finished = process.hrtime.bigint();
  agent.destroy();
  if (media.size !== size) throw new Error(`merged size ${media.size}, expected ${size}`);
  return { seconds: Number(finished - started) / 1e9, completeSeconds: Number(finished - chunksDone) / 1e9 };
}

/** Every measurement starts with no writeback pending from the one before (each writes 1 GiB). */
const settleDisk = () => promisify(execFile)('sync');

/** `dd` writing 1 GiB of zeros with a final fsync, in seconds. */
async function ddSeconds(dir: string): Promise<number> {
  await settleDisk();
  const target = path.join(dir, 'dd.bin');
  const started = process.hrtime.bigint();
  await promisify(execFile)('dd', ['if=/dev/zero', `of=${target}`, 'bs=1M', 'count=1024', 'conv=fsync']);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await fs.rm(target, { force: true });
  return seconds;
}

/** Peak resident set size (VmHWM) of a process, in MB. */
async function peakRssMb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** CPU seconds (user + system) a process has used so far. */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  // utime and stime, in clock ticks of USER_HZ (100 on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const mbps = (bytes: number, seconds: number) => bytes / 1e6 / seconds;

export default async function media(_ctx: BenchContext): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-bench-media-'));
  let server: ChildServer | undefined;
  try {
    const command = await serverCommand(dataDir);
    server = await startChildServer(command.args, path.join(dataDir, 'server'));
    const token = (await api<{ token: string }>(`${server.url}/api/auth/login`, 'POST', '', { username: 'admin', password: ADMIN_PASSWORD })).token;
    const rssAtStart = await peakRssMb(server.process.pid!);
    const ddBefore = await ddSeconds(dataDir);
    const measured: [Encoding, UploadTiming, number][] = [];
    for (const encoding of ['multipart', 'raw'] as const) {
      const cpuBefore = await cpuSeconds(server.process.pid!);
      await settleDisk();
      const timing = await chunkedUpload(server.url, token, GIB, encoding);
      measured.push([encoding, timing, (await cpuSeconds(server.process.pid!)) - cpuBefore]);
    }
    const ddAfter = await ddSeconds(dataDir);
    const rssPeak = await peakRssMb(server.process.pid!);
    const dd = (ddBefore + ddAfter) / 2;
    console.log(`dd 1 GiB conv=fsync (same disk)                ${mbps(GIB, dd).toFixed(0).padStart(6)} MB/s  (${ddBefore.toFixed(2)} s before, ${ddAfter.toFixed(2)} s after)`);
    for (const [encoding, { seconds, completeSeconds }, serverCpu] of measured) {
      const ratio = (dd / seconds) * 100;
      console.log(
        `chunked upload 1 GiB, ${encoding.padEnd(9)} chunks (${PARALLEL} in flight) ${mbps(GIB, seconds).toFixed(0).padStart(6)} MB/s  ` +
          `= ${ratio.toFixed(1)} % of dd  [target >= 70 %]  ${ratio >= 70 ? 'ok' : 'MISSED'}`,
      );
      console.log(`  complete ${completeSeconds.toFixed(2)} s of ${seconds.toFixed(2)} s; server CPU ${serverCpu.toFixed(2)} s (user + system)`);
    }
    console.log(
      `server peak RSS (VmHWM, ${command.label})      ${rssPeak.toFixed(0).padStart(6)} MB    (${rssAtStart.toFixed(0)} MB after start)  ` +
        `[target < 200 MB]  ${rssPeak < 200 ? 'ok' : 'MISSED'}`,
    );
  } finally {
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
