// Issue 15: a branch syncs 10,000 formal exam records up and 500 MB of approved media down over loopback, each
// server a process of its own (central on PostgreSQL when one answers, branch on SQLite). Targets: records >= 2,000/s;
// file throughput >= 0.7x a plain HTTP download of the same files in the same run (written to disk the same way);
// the branch's p99 for GET /api/products < 50 ms while it syncs. SYNC_BENCH_RECORDS and SYNC_BENCH_MB scale it down.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import os from 'node:os';
import type { BenchContext } from './harness.js';
import { startNode, type Node } from '../tests/support/sync-nodes.js';

const RECORDS = Number(process.env.SYNC_BENCH_RECORDS ?? 10_000);
const TOTAL_MB = Number(process.env.SYNC_BENCH_MB ?? 500);
const FILES = 5;
const USERS = 20;
const PASSWORD = 'bench-pass-1';

const postgresUp = () =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(5432, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function data<T>(res: { status: number; text: string; body: { data: unknown } }): Promise<T> {
  if (res.status >= 300) throw new Error(`${res.status} ${res.text}`);
  return res.body.data as T;
}

/** The central bank (3 questions), a formal paper and USERS employees; the branch enrolled and pulled once. */
async function arrange(central: Node, branch: Node): Promise<void> {
  const admin = { token: central.adminToken };
  const options = ['A', 'B', 'C', 'D'].map((key) => ({ key, text: key }));
  for (let i = 0; i < 3; i++) await data(await central.api.post('/api/exam/questions', { ...admin, body: { domain: 'bench', course_id: null, type: 'single', stem: `Q${i}?`, options, answer: ['B'], explanation: '' } }));
  await data(await central.api.post('/api/exam/papers', { ...admin, body: { name: 'Bench paper', type: 'formal', domain: 'bench', question_count: 3, total_score: 100, pass_score: 60, duration_minutes: 30, randomize: false } }));
  for (let i = 0; i < USERS; i++) await data(await central.api.post('/api/system/users', { ...admin, body: { username: `bench${i}`, password: PASSWORD, full_name: `Bench ${i}`, role: 'employee' } }));
  const { enrolment_token } = await data<{ enrolment_token: string }>(await central.api.post('/api/sync/devices', { ...admin, body: { name: 'bench laptop' } }));
  await data(await branch.api.put('/api/sync/config', { token: branch.adminToken, body: { central_url: central.api.baseUrl, enrolment_token } }));
  await data(await branch.api.post('/api/sync/run', { token: branch.adminToken }));
}

/** RECORDS formal exams taken on the branch through its API (half passed), 16 at a time. */
async function takeExams(branch: Node): Promise<void> {
  const tokens = await Promise.all(Array.from({ length: USERS }, (_, i) => branch.api.login(`bench${i}`, PASSWORD)));
  const papers = await data<{ id: number; name: string }[]>(await branch.api.get('/api/exam/papers', { token: branch.adminToken }));
  const paperId = papers.find((p) => p.name === 'Bench paper')!.id;
  const limit = pLimit(16);
  await Promise.all(
    Array.from({ length: RECORDS }, (_, i) =>
      limit(async () => {
        const token = tokens[i % USERS]!;
        const started = await data<{ session_id: string; questions: { id: number }[] }>(await branch.api.post('/api/exam/start', { token, body: { paper_id: paperId } }));
        const answers = Object.fromEntries(started.questions.map((q) => [String(q.id), i % 2 ? 'B' : 'A']));
        await data(await branch.api.post('/api/exam/submit', { token, body: { session_id: started.session_id, answers, time_spent_sec: 60 } }));
      }),
    ),
  );
}

/** FILES files of TOTAL_MB in all, stored as approved media of the central server (rows written as an approval leaves them). */
async function seedMedia(central: Node): Promise<string[]> {
  const dir = path.join(central.dataDir, 'media', 'files');
  fs.mkdirSync(dir, { recursive: true });
  const size = Math.floor((TOTAL_MB * 1024 * 1024) / FILES);
  const block = crypto.randomBytes(1024 * 1024);
  const files: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const key = crypto.randomBytes(16).toString('hex');
    const file = path.join(dir, key);
    const hash = crypto.createHash('sha256');
    const fd = fs.openSync(file, 'w', 0o600);
    for (let written = 0; written < size; ) {
      const part = block.subarray(0, Math.min(block.length, size - written));
      block[0] = (block[0]! + 1) % 256; // no two blocks alike
      fs.writeSync(fd, part);
      hash.update(part);
      written += part.length;
    }
    fs.closeSync(fd);
    const stamp = new Date().toISOString();
    await central.database()('media_files').insert({
      filename: `bench-${i}.bin`, file_ext: 'bin', mime_type: 'application/octet-stream', size, storage_key: key, bind_type: 'none', status: 'approved',
      sha256: hash.digest('hex'), created_at: stamp, updated_at: stamp, reviewed_at: stamp,
    });
    files.push(file);
  }
  return files;
}

/** The baseline: the same files served by a bare Node HTTP server and written to disk by a bare client, one after another. */
async function plainDownload(files: string[], scratch: string): Promise<number> {
  const server = http.createServer((req, res) => {
    const file = files[Number(req.url!.slice(1))]!;
    res.writeHead(200, { 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  const started = performance.now();
  for (let i = 0; i < files.length; i++) {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(`http://127.0.0.1:${port}/${i}`, resolve).on('error', reject));
    const hash = crypto.createHash('sha256');
    res.on('data', (chunk: Buffer) => hash.update(chunk));
    await pipeline(res, fs.createWriteStream(path.join(scratch, `plain-${i}`)));
    hash.digest('hex');
  }
  const seconds = (performance.now() - started) / 1000;
  server.close();
  for (let i = 0; i < files.length; i++) fs.rmSync(path.join(scratch, `plain-${i}`), { force: true });
  return TOTAL_MB / seconds;
}

/**
 * A sync run while a user browses the branch: GET /api/products one request after another, 20 ms apart (a person
 * clicking, not a load test that would take the CPU the sync needs); the p99 of their latencies.
 */
async function runWhileBrowsing(branch: Node): Promise<{ summary: { pushed: number; pulled: number; files: number; duration_ms: number }; p99: number; samples: number }> {
  let done = false;
  const latencies: number[] = [];
  const browse = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${branch.api.baseUrl}/api/products?page=1&size=20`, { headers: { authorization: `Bearer ${branch.adminToken}` } });
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const summary = await data<{ pushed: number; pulled: number; files: number; duration_ms: number }>(await branch.api.post('/api/sync/run', { token: branch.adminToken }));
  done = true;
  await browse;
  latencies.sort((a, b) => a - b);
  return { summary, p99: Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0), samples: latencies.length };
}

export default async function sync(_ctx: BenchContext): Promise<void> {
  const pg = await postgresUp();
  const central = await startNode({ postgres: pg });
  const branch = await startNode({ postgres: false });
  try {
    console.log(`central on ${pg ? 'PostgreSQL' : 'SQLite'}, branch on SQLite, both under tsx; ${RECORDS} records, ${FILES} files of ${TOTAL_MB} MB in all; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
    await arrange(central, branch);
    let t = performance.now();
    await takeExams(branch);
    console.log(`branch: ${RECORDS} exams taken through its API in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const up = await runWhileBrowsing(branch);
    const recordsPerSecond = up.summary.pushed / (up.summary.duration_ms / 1000);
    console.log(`records up: ${up.summary.pushed} in ${(up.summary.duration_ms / 1000).toFixed(2)} s = ${recordsPerSecond.toFixed(0)}/s (target >= 2,000/s); ` +
      `GET /api/products p99 while syncing: ${up.p99} ms over ${up.samples} requests (target < 50 ms)`);

    t = performance.now();
    const files = await seedMedia(central);
    console.log(`central: ${FILES} media files written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const plain = await plainDownload(files, branch.dataDir);
    const down = await runWhileBrowsing(branch);
    const syncMbps = TOTAL_MB / (down.summary.duration_ms / 1000);
    console.log(`files down: ${down.summary.files} files, ${TOTAL_MB} MB in ${(down.summary.duration_ms / 1000).toFixed(2)} s = ${syncMbps.toFixed(0)} MB/s; ` +
      `plain HTTP download ${plain.toFixed(0)} MB/s; ratio ${(syncMbps / plain).toFixed(2)}x (target >= 0.7x); GET /api/products p99 while syncing: ${down.p99} ms over ${down.samples} requests`);
  } finally {
    await branch.close();
    await central.close();
  }
}
