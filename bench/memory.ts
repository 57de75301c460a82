// Issue 9: the server's memory after a day's load, as measured from outside. One round: seed 1,000 users, 5,000
// products, 500 courses and 200 questions through the API; 10 s of load each (32 connections) on the product list,
// course details, notifications, health and login; 2,000 exam start/submit pairs; then a 512 MB chunked upload.
// RSS is read after each round's load and at the peak of its upload; three rounds show whether memory grows.
// Targets: RSS after a round < 160 MB, peak during the upload < 200 MB, growth over three rounds < 10 %.
import pLimit from 'p-limit';
import { load, procStatusMb, resetPeakRss, startBenchServer, type BenchServer } from './harness.js';
import { chunkedUpload } from './upload-client.js';
import type { StartedExam } from '../contract/exams.js';

const ROUNDS = 3;
const LOAD_SECONDS = 10;
const UPLOAD_BYTES = 512 * 1024 ** 2;
const EXAMS = 2_000;
const PASSWORD = 'bench-user-pass';

/** Runs `count` calls of `task` with `concurrency` at a time. */
async function times(count: number, concurrency: number, task: (i: number) => Promise<unknown>): Promise<void> {
  const limit = pLimit(concurrency);
  await Promise.all(Array.from({ length: count }, (_, i) => limit(() => task(i))));
}

async function seed(server: BenchServer, round: number): Promise<number> {
  const admin = server.adminToken;
  await times(1_000, 4, (i) =>
    server.api('POST', '/api/system/users', admin, { username: `r${round}u${i}`, password: PASSWORD, full_name: `User ${i}`, role: 'employee' }),
  );
  const products = Array.from({ length: 5_000 }, (_, i) => ({ code: `R${round}P${i}`, name: `Product ${i}`, category: i % 2 ? 'capital_consulting' : 'insurance', summary: `Summary of product ${i}` }));
  const form = new FormData();
  form.set('file', new Blob([JSON.stringify(products)]), 'products.json');
  const res = await fetch(`${server.url}/api/products/import`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
  if (!res.ok) throw new Error(`product import: ${res.status} ${await res.text()}`);
  await times(500, 8, (i) => server.api('POST', '/api/courses', admin, { title: `Course ${i}`, category: 'capital_script', content: 'x'.repeat(2_000) }));
  const domain = `bench_r${round}`;
  const options = ['A', 'B', 'C', 'D'].map((key) => ({ key, text: `Option ${key}` }));
  await times(200, 8, (i) =>
    server.api('POST', '/api/exam/questions', admin, { domain, course_id: null, type: 'single', stem: `Question ${i}?`, options, answer: ['B'], explanation: 'Because.' }),
  );
  const paper = await server.api<{ id: number }>('POST', '/api/exam/papers', admin, {
    name: `Round ${round} paper`, type: 'formal', domain, question_count: 100, total_score: 100, pass_score: 60, duration_minutes: 60, randomize: true,
  });
  return paper.id;
}

async function dayOfLoad(server: BenchServer, round: number): Promise<void> {
  const token = await server.login(`r${round}u1`, PASSWORD);
  const auth = { authorization: `Bearer ${token}` };
  const paths = ['/api/products?page=1&size=20', '/api/courses/1', '/api/notifications', '/api/health'];
  for (const path of paths) await load({ url: server.url, path, headers: auth, connections: 32, duration: LOAD_SECONDS });
  await load({ url: server.url, method: 'POST', path: '/api/auth/login', body: { username: `r${round}u2`, password: PASSWORD }, connections: 32, duration: LOAD_SECONDS });
}

async function exams(server: BenchServer, round: number, paperId: number): Promise<void> {
  const tokens = await Promise.all(Array.from({ length: 16 }, (_, i) => server.login(`r${round}u${100 + i}`, PASSWORD)));
  await times(EXAMS, 16, async (i) => {
    const token = tokens[i % tokens.length]!;
    const session = await server.api<StartedExam>('POST', '/api/exam/start', token, { paper_id: paperId });
    const answers = Object.fromEntries(session.questions.map((q, k) => [String(q.id), k % 5 ? 'B' : 'A']));
    await server.api('POST', '/api/exam/submit', token, { session_id: session.session_id, answers, time_spent_sec: 600 });
  });
}

const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');

export default async function memory(): Promise<void> {
  const server = await startBenchServer();
  try {
    console.log(`server RSS after start                       ${procStatusMb(server.pid, 'VmRSS').toFixed(0).padStart(5)} MB`);
    const after: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const paperId = await seed(server, round);
      await dayOfLoad(server, round);
      await exams(server, round, paperId);
      const rss = procStatusMb(server.pid, 'VmRSS');
      after.push(rss);
      resetPeakRss(server.pid);
      await chunkedUpload(server.url, server.adminToken, UPLOAD_BYTES, { encoding: 'multipart', inFlight: 1 });
      const peak = procStatusMb(server.pid, 'VmHWM');
      console.log(
        `round ${round}: RSS after seeding, load and ${EXAMS} exams ${rss.toFixed(0).padStart(5)} MB [target < 160 MB] ${verdict(rss < 160)}; ` +
          `peak during a 512 MB upload ${peak.toFixed(0).padStart(5)} MB [target < 200 MB] ${verdict(peak < 200)}`,
      );
    }
    const growth = ((after.at(-1)! - after[0]!) / after[0]!) * 100;
    console.log(`RSS growth from round 1 to round ${ROUNDS}: ${growth.toFixed(1)} % [target < 10 %] ${verdict(growth < 10)}`);
  } finally {
    await server.close();
  }
}
