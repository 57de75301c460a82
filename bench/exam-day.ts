// Issue 33, item 4: an exam day on the central tier. N candidates (EXAM_DAY_N or `npm run bench -- exam-day 500`,
// default 2,000) over one node and then two behind the round-robin proxy, on PostgreSQL and an s3rver bucket
// (tests/support/cluster.ts), driven by the bench's own load generator (tests/support/exam-day.ts): everyone starts in
// the first tenth of a 30-minute exam compressed into EXAM_DAY_SECONDS (default 60), autosaves three times and submits
// in its last (compressed) minute. Reported per cluster: p50/p99 of start, autosave and submit as ratios to
// GET /api/products measured on the same cluster just before, and two nodes against one. Then a second day on the
// two nodes with node 0 killed (SIGKILL) halfway, checked through the API: the acknowledged autosaves, one record per
// candidate with the right score, a second submit (every tenth candidate) never a second record.
import os from 'node:os';
import { load, percentile, type BenchContext, type LoadResult } from './harness.js';
import { startCluster, type Cluster } from '../tests/support/cluster.js';
import { EXAM_DAY_ENV, runExamDay, type ExamDayOptions, type ExamDayResult, type Kind } from '../tests/support/exam-day.js';

const fromArgs = process.argv.slice(2).map(Number).find((n) => Number.isInteger(n) && n > 0);
const N = fromArgs ?? Number(process.env.EXAM_DAY_N ?? 2000);
const day: ExamDayOptions = {
  candidates: N,
  seconds: Number(process.env.EXAM_DAY_SECONDS ?? 60),
  autosaves: 3,
  questions: 10,
  // A login is an argon2 hash (~50 ms of a core on a quiet machine); the others start with a token issued for them.
  logins: Math.min(N, Number(process.env.EXAM_DAY_LOGINS ?? 100)),
  connections: 64,
  log: (line) => console.log(`  ${line}`),
};

interface Measured {
  products: LoadResult;
  day: ExamDayResult;
}

async function productsOn(cluster: Cluster): Promise<LoadResult> {
  const res = await fetch(`${cluster.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.255.255.253' }, body: JSON.stringify({ username: 'admin', password: 'admin-pass-123' }) });
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  for (let i = 0; i < 40; i++) {
    await fetch(`${cluster.url}/api/products`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ name: `Fund ${i}`, type: 'fund', status: 'active' }) });
  }
  return load({ url: cluster.url, path: '/api/products', headers: { authorization: `Bearer ${token}` }, connections: 16, duration: 5 });
}

const KINDS: Kind[] = ['start', 'autosave', 'submit'];
const ms = (n: number) => `${n.toFixed(0)} ms`;

function describe(label: string, { products, day: result }: Measured): void {
  console.log(`${label}: GET /api/products p50 ${ms(products.p50)} p99 ${ms(products.p99)} (${products.rps.toFixed(0)} req/s, 16 connections)`);
  for (const kind of KINDS) {
    const values = result.latencies[kind];
    const p50 = percentile(values, 0.5);
    const p99 = percentile(values, 0.99);
    console.log(
      `  ${kind.padEnd(8)} ${String(values.length).padStart(5)} acknowledged at ${result.rates[kind].toFixed(0).padStart(4)}/s  ` +
        `p50 ${ms(p50).padStart(8)} = ${(p50 / Math.max(1, products.p50)).toFixed(1)}x products  p99 ${ms(p99).padStart(8)} = ${(p99 / Math.max(1, products.p99)).toFixed(1)}x products`,
    );
  }
  if (result.latencies.login.length) console.log(`  login    ${String(result.latencies.login.length).padStart(5)} before the exam, p50 ${ms(percentile(result.latencies.login, 0.5))} p99 ${ms(percentile(result.latencies.login, 0.99))}`);
  console.log(`  the day: ${result.rps.toFixed(0)} acknowledged req/s over ${result.seconds.toFixed(1)} s; ${result.problems.length ? `PROBLEMS ${result.problems.length}: ${result.problems.slice(0, 5).join('; ')}` : 'checks passed'}`);
}

export default async function examDay(_ctx: BenchContext): Promise<void> {
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${os.availableParallelism()} cores`);
  console.log(`${N} candidates, a 30-minute exam in ${day.seconds} s, ${day.autosaves} autosaves each, ${day.logins} of them log in (the rest hold issued tokens), ${day.connections} sockets`);
  const results: Record<number, Measured> = {};
  let killed: ExamDayResult | undefined;
  for (const size of [1, 2]) {
    const cluster = await startCluster(size, { ...EXAM_DAY_ENV });
    try {
      const products = await productsOn(cluster);
      results[size] = { products, day: await runExamDay(cluster, day, `day${size}`) };
      describe(`${size} node${size > 1 ? 's' : ''}`, results[size]);
      if (size === 2) {
        console.log('two nodes again, node 0 killed (SIGKILL) halfway through the exam:');
        killed = await runExamDay(cluster, { ...day, logins: Math.min(day.logins ?? 0, 10), killAt: 0.5, doubleSubmitEvery: 10 }, 'kill');
        console.log(
          `  ${killed.latencies.submit.length} submits acknowledged (every tenth candidate twice), ${killed.retries} attempts sent again after the kill, ` +
            `submit p99 ${ms(percentile(killed.latencies.submit, 0.99))}; ${killed.problems.length ? `PROBLEMS ${killed.problems.length}: ${killed.problems.slice(0, 5).join('; ')}` : 'no acknowledged autosave lost, one record per candidate with the right score'}`,
        );
      }
    } finally {
      await cluster.close();
    }
  }
  const one = results[1]!;
  const two = results[2]!;
  // Two nodes on one 2-core machine cannot be faster; the figure is the cost of being two (target >= 0.8x). Higher is better.
  const ratios = KINDS.map((kind) => {
    const p50 = percentile(one.day.latencies[kind], 0.5) / percentile(two.day.latencies[kind], 0.5);
    const p99 = percentile(one.day.latencies[kind], 0.99) / percentile(two.day.latencies[kind], 0.99);
    return `${kind} rate ${(two.day.rates[kind] / one.day.rates[kind]).toFixed(2)}x, p50 ${p50.toFixed(2)}x, p99 ${p99.toFixed(2)}x`;
  });
  console.log(`two nodes against one (one node's latency over two's, two's rate over one's) [target >= 0.8x]: ${ratios.join('; ')}`);
  console.log(`load average at end: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}`);
}
