// Issue 24: the central cluster's overhead. Through the same round-robin proxy (tests/support/cluster.ts), two nodes
// against one node, on one PostgreSQL schema and one s3rver bucket each, in the same run: GET /api/products and exam
// submits. Two nodes on a 2-core machine cannot be faster; the figure is the cost of being two (target >= 0.8x).
// Then, in the same run, the issue's upload figures (bench/storage.ts): a 512 MB chunked upload into the bucket
// against the AWS SDK's own multipart upload of the same bytes (>= 0.8x), and the node's peak RSS (< 200 MB).
import os from 'node:os';
import { load, type BenchContext, type LoadResult } from './harness.js';
import storage from './storage.js';
import { startCluster, type Cluster } from '../tests/support/cluster.js';
import { ApiClient } from '../tests/support/client.js';
import { questionBody } from '../tests/api/exams-fixtures.js';

const SUBMITS = 300;

async function prepare(cluster: Cluster): Promise<{ token: string; sessions: string[]; answers: Record<string, unknown> }> {
  const api = new ApiClient(cluster.url);
  const token = await api.login('admin', 'admin-pass-123');
  for (let i = 0; i < 40; i++) await api.post('/api/products', { token, body: { name: `Fund ${i}`, type: 'fund', status: 'active' } });
  const domain = 'bench_cluster';
  for (let i = 0; i < 5; i++) {
    await api.post('/api/exam/questions', { token, body: questionBody(domain) });
  }
  const paper = await api.post('/api/exam/papers', { token, body: { name: 'Bench', type: 'formal', domain, question_count: 5, total_score: 100, pass_score: 60, duration_minutes: 30, randomize: false } });
  const sessions: string[] = [];
  let answers: Record<string, unknown> = {};
  for (let i = 0; i < SUBMITS; i++) {
    const started = await api.post('/api/exam/start', { token, body: { paper_id: paper.body.data.id } });
    sessions.push(started.body.data.session_id);
    answers = Object.fromEntries((started.body.data.questions as { id: number }[]).map((q) => [String(q.id), 'A']));
  }
  return { token, sessions, answers };
}

async function measure(cluster: Cluster): Promise<{ products: LoadResult; submits: LoadResult }> {
  const { token, sessions, answers } = await prepare(cluster);
  const headers = { authorization: `Bearer ${token}` };
  const products = await load({ url: cluster.url, path: '/api/products', headers, connections: 16, duration: 5 });
  let next = 0;
  const submits = await load({
    url: cluster.url,
    method: 'POST',
    path: '/api/exam/submit',
    headers,
    connections: 8,
    amount: SUBMITS,
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ session_id: sessions[next++ % sessions.length], answers, time_spent_sec: 60 }) }) }],
  });
  return { products, submits };
}

export default async function cluster(ctx: BenchContext): Promise<void> {
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${os.availableParallelism()} cores`);
  const results: Record<number, { products: LoadResult; submits: LoadResult }> = {};
  for (const size of [1, 2]) {
    const running = await startCluster(size);
    try {
      results[size] = await measure(running);
    } finally {
      await running.close();
    }
  }
  for (const what of ['products', 'submits'] as const) {
    const one = results[1]![what];
    const two = results[2]![what];
    console.log(
      `${what === 'products' ? 'GET /api/products' : 'POST /api/exam/submit'} through the proxy: one node ${one.rps.toFixed(0)} req/s (p99 ${one.p99} ms), ` +
        `two nodes ${two.rps.toFixed(0)} req/s (p99 ${two.p99} ms) = ${(two.rps / one.rps).toFixed(2)}x one node  [target >= 0.8x]` +
        `${two.errors || two.non2xx || one.errors || one.non2xx ? `  errors ${one.errors + two.errors} non-2xx ${one.non2xx + two.non2xx}` : ''}`,
    );
  }
  await storage(ctx);
  console.log(`load average at end: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}`);
}
