// Issue 24: the central cluster's overhead. Through the same round-robin proxy (tests/support/cluster.ts), two nodes
// against one node, on one PostgreSQL schema and one s3rver bucket each, in the same run: GET /api/products and exam
// submits (a hundred candidates, each their own sessions; and, reported beside, one person's many sessions, where every
// submit writes the same rows and two nodes wait on each other's row locks). Two nodes on a 2-core machine cannot be faster; the figure is the cost of being two (target >= 0.8x).
// Then, in the same run, the issue's upload figures (bench/storage.ts): a 512 MB chunked upload into the bucket
// against the AWS SDK's own multipart upload of the same bytes (>= 0.8x), and the node's peak RSS (< 200 MB).
import os from 'node:os';
import { load, type BenchContext, type LoadResult } from './harness.js';
import storage from './storage.js';
import { startCluster, type Cluster } from '../tests/support/cluster.js';
import { ApiClient } from '../tests/support/client.js';
import { questionBody } from '../tests/api/exams-fixtures.js';

const SUBMITS = 600;
const CANDIDATES = 100;

interface Prepared {
  token: string;
  /** Sessions of many candidates, the consecutive ones of different people (an exam day: each submits their own). */
  candidates: { session: string; token: string }[];
  /** As many sessions of one person (the admin): every submit writes the same person's rows (points, mistakes, cards). */
  onePerson: string[];
  answers: Record<string, unknown>;
}

async function prepare(cluster: Cluster): Promise<Prepared> {
  const api = new ApiClient(cluster.url);
  const token = await api.login('admin', 'admin-pass-123');
  for (let i = 0; i < 40; i++) await api.post('/api/products', { token, body: { name: `Fund ${i}`, type: 'fund', status: 'active' } });
  const domain = 'bench_cluster';
  for (let i = 0; i < 5; i++) {
    await api.post('/api/exam/questions', { token, body: questionBody(domain) });
  }
  const paper = await api.post('/api/exam/papers', { token, body: { name: 'Bench', type: 'formal', domain, question_count: 5, total_score: 100, pass_score: 60, duration_minutes: 30, randomize: false } });
  let answers: Record<string, unknown> = {};
  const startOne = async (as: string): Promise<string> => {
    const started = await api.post('/api/exam/start', { token: as, body: { paper_id: paper.body.data.id } });
    answers = Object.fromEntries((started.body.data.questions as { id: number }[]).map((q) => [String(q.id), 'A']));
    return started.body.data.session_id as string;
  };
  const people: string[] = [];
  for (let i = 0; i < CANDIDATES; i++) {
    const username = `candidate${i}`;
    const created = await api.post('/api/system/users', { token, body: { username, password: 'candidate-pass', full_name: `考生 ${i}`, role: 'employee' } });
    if (created.status !== 201) throw new Error(`creating ${username}: ${created.status} ${created.text}`);
    people.push(await api.login(username, 'candidate-pass'));
  }
  const candidates: Prepared['candidates'] = [];
  for (let i = 0; i < SUBMITS; i++) candidates.push({ token: people[i % CANDIDATES]!, session: await startOne(people[i % CANDIDATES]!) });
  const onePerson: string[] = [];
  for (let i = 0; i < SUBMITS; i++) onePerson.push(await startOne(token));
  return { token, candidates, onePerson, answers };
}

interface Measured {
  products: LoadResult;
  submits: LoadResult;
  onePerson: LoadResult;
}

async function measure(cluster: Cluster): Promise<Measured> {
  const { token, candidates, onePerson, answers } = await prepare(cluster);
  const headers = { authorization: `Bearer ${token}` };
  const products = await load({ url: cluster.url, path: '/api/products', headers, connections: 16, duration: 5 });
  const submitLoad = (next: (i: number) => { session: string; token: string }) => {
    let i = 0;
    return load({
      url: cluster.url,
      method: 'POST',
      path: '/api/exam/submit',
      headers,
      connections: 8,
      amount: SUBMITS,
      requests: [{ setupRequest: (req) => {
        const { session, token: as } = next(i++);
        return { ...req, headers: { ...req.headers, authorization: `Bearer ${as}` }, body: JSON.stringify({ session_id: session, answers, time_spent_sec: 60 }) };
      } }],
    });
  };
  const submits = await submitLoad((i) => candidates[i % candidates.length]!);
  const one = await submitLoad((i) => ({ session: onePerson[i % onePerson.length]!, token }));
  return { products, submits, onePerson: one };
}

export default async function cluster(ctx: BenchContext): Promise<void> {
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${os.availableParallelism()} cores`);
  const results: Record<number, Measured> = {};
  for (const size of [1, 2]) {
    const running = await startCluster(size);
    try {
      results[size] = await measure(running);
    } finally {
      await running.close();
    }
  }
  const labels = {
    products: 'GET /api/products',
    submits: `POST /api/exam/submit, ${CANDIDATES} candidates`,
    onePerson: 'POST /api/exam/submit, one person (not the target: all writes on one person\'s rows)',
  } as const;
  for (const what of ['products', 'submits', 'onePerson'] as const) {
    const one = results[1]![what];
    const two = results[2]![what];
    console.log(
      `${labels[what]} through the proxy: one node ${one.rps.toFixed(0)} req/s (p99 ${one.p99} ms), ` +
        `two nodes ${two.rps.toFixed(0)} req/s (p99 ${two.p99} ms) = ${(two.rps / one.rps).toFixed(2)}x one node${what === 'onePerson' ? '' : '  [target >= 0.8x]'}` +
        `${two.errors || two.non2xx || one.errors || one.non2xx ? `  errors ${one.errors + two.errors} non-2xx ${one.non2xx + two.non2xx}` : ''}`,
    );
  }
  await storage(ctx);
  console.log(`load average at end: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}`);
}
