// Issue 10: does the embedded server belong in the desktop app's main process? The main process's event-loop
// delay (p99) is measured while the server extracts the text of a 100 MB PDF, grades a burst of exam submits and
// ingests a 20 MB knowledge source, all at once, with the server in the main process and with it in its own
// process (the utilityProcess design). Above 50 ms p99 the window stutters (input, IPC, repaints wait on the main
// process): the server moves out. The inputs are generated here (cached in the temp folder between runs).
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import type { Knex } from 'knex';
import { load } from './harness.js';
import { largeSource, paragraph, random, vocabulary } from './knowledge.js';
import { preStart, seedBank } from './exams.js';
import { openDatabase } from '../server/db/knex.js';
import { ensureAdmin } from '../server/users/bootstrap.js';
import type { ExamPaper } from '../contract/exams.js';
import type { User } from '../contract/users.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PDF_BYTES = 100 * 1024 * 1024;
const SUBMITS = 2000;
const THRESHOLD_MS = 50;
const ADMIN_PASSWORD = 'bench-admin-pass';
const inputs = path.join(os.tmpdir(), 'trainbench-bench-desktop');

/** A 100 MB brochure-like PDF: pages of Chinese and English text, each with a photo (distinct JPEGs of noise). */
async function hundredMegabytePdf(): Promise<string> {
  const file = path.join(inputs, 'brochure-100mb.pdf');
  if (fs.existsSync(file)) return file;
  const images = path.join(inputs, 'images');
  await fsp.mkdir(images, { recursive: true });
  const ffmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const pages = Math.ceil(PDF_BYTES / 287_000);
  await promisify(execFile)(ffmpeg, ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', "nullsrc=s=800x600,geq=lum='random(1)*255':cb=128:cr=128", '-frames:v', String(pages), '-q:v', '4', path.join(images, 'p%04d.jpg')]);
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 40 });
  const cjk = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
  const font = fs.existsSync(cjk) ? (doc.registerFont('cjk', cjk, 'NotoSansCJKsc-Regular'), 'cjk') : 'Helvetica';
  const rand = random(11);
  const vocab = vocabulary(rand);
  const out = fs.createWriteStream(`${file}.part`);
  doc.pipe(out);
  for (let page = 1; page <= pages; page++) {
    if (page > 1) doc.addPage();
    doc.font(font).fontSize(14).text(`第${page}页 产品手册 Product handbook page ${page}`);
    doc.image(path.join(images, `p${String(page).padStart(4, '0')}.jpg`), { fit: [515, 330] });
    doc.moveDown().fontSize(9).text(paragraph(vocab, rand, font === 'cjk' ? 1200 : 2400));
  }
  doc.end();
  await new Promise<void>((resolve, reject) => out.on('finish', () => resolve()).on('error', reject));
  await fsp.rename(`${file}.part`, file);
  await fsp.rm(images, { recursive: true, force: true });
  return file;
}

interface Percentiles {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}
/** Event-loop delay in ms beyond the sampling interval: at Node's default 10 ms resolution, and at 1 ms. */
interface Delay extends Percentiles {
  fine: Percentiles;
  /** Times the loop was more than 50 ms late, and their total. */
  stalls: number;
  stalledMs: number;
  /** Event-loop utilization, %: the share of the time the main process could not have answered anything. */
  busy: number;
}

/** bench/desktop-main.ts in a child process, driven over its stdin. */
class MainProcess {
  private lines: AsyncIterator<string>;
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    lines: AsyncIterator<string>,
  ) {
    this.lines = lines;
  }

  static async start(mode: 'in-process' | 'own-process', dataDir: string): Promise<MainProcess> {
    const env = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, KNOWLEDGE_DIR: path.join(dataDir, 'knowledge'), PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD, JWT_SECRET: 'bench-desktop-secret' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/desktop-main.ts', mode], { cwd: root, env, stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    for (;;) {
      const { value, done } = await lines.next();
      if (done) throw new Error(`desktop-main ${mode} exited before it was ready`);
      const ready = /^ready (\S+)$/.exec(value);
      if (ready) return new MainProcess(child, ready[1]!, lines);
    }
  }

  private async ask(command: string): Promise<string> {
    this.child.stdin!.write(`${command}\n`);
    const { value } = await this.lines.next();
    return String(value);
  }

  reset = () => this.ask('reset');
  report = async (): Promise<Delay> => JSON.parse(await this.ask('report')) as Delay;
  stop = () =>
    new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.stdin!.write('stop\n');
    });
}

async function api<T>(url: string, method: string, token: string, body?: unknown | FormData): Promise<T> {
  const form = body instanceof FormData;
  const res = await fetch(url, {
    method,
    headers: { ...(form || body === undefined ? {} : { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }) },
    body: form ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T; message: string };
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${json.message}`);
  return json.data;
}

interface RoundResult {
  delay: Delay;
  extractSeconds: number;
  ingestSeconds: number;
  submitsPerSecond: number;
  seconds: number;
}

/** One round: set the work up (not measured), then measure the main process while all three run at once. */
async function round(mode: 'in-process' | 'own-process', pdf: string, source: string): Promise<RoundResult> {
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'trainbench-bench-desktop-'));
  let db: Knex | undefined;
  let main: MainProcess | undefined;
  try {
    db = await openDatabase({ dataDir });
    await ensureAdmin(db, 'admin', ADMIN_PASSWORD);
    await seedBank(db);
    await fsp.mkdir(path.join(dataDir, 'knowledge'), { recursive: true });
    await fsp.writeFile(path.join(dataDir, 'knowledge', 'large.md'), source);
    main = await MainProcess.start(mode, dataDir);
    const url = main.url;
    const token = (await api<{ token: string }>(`${url}/api/auth/login`, 'POST', '', { username: 'admin', password: ADMIN_PASSWORD })).token;

    const form = new FormData();
    form.append('file', new Blob([await fsp.readFile(pdf)], { type: 'application/pdf' }), 'brochure.pdf');
    const media = await api<{ id: number }>(`${url}/api/media/upload`, 'POST', token, form);
    const scan = await api<{ results: { file_path: string; source_id: number }[] }>(`${url}/api/knowledge/scan`, 'POST', token);
    const sourceId = scan.results.find((r) => r.file_path === 'large.md')!.source_id;
    const paper = await api<ExamPaper>(`${url}/api/exam/papers`, 'POST', token, {
      name: 'Bench formal exam', type: 'formal', domain: 'bench', question_count: 100, total_score: 100, pass_score: 60, duration_minutes: 120, randomize: true,
    });
    const candidate = await api<User>(`${url}/api/system/users`, 'POST', token, { username: 'candidate', password: 'bench-user-pass', full_name: 'Bench Candidate', department: 'Bench' });
    const candidateToken = (await api<{ token: string }>(`${url}/api/auth/login`, 'POST', '', { username: 'candidate', password: 'bench-user-pass' })).token;
    const bodies = await preStart(db, candidate, paper.id, SUBMITS);

    await main.reset();
    const started = performance.now();
    const since = () => (performance.now() - started) / 1000;
    const extraction = (async () => {
      await api(`${url}/api/media/audit/${media.id}`, 'POST', token, { action: 'approve' });
      for (;;) {
        const status = await api<{ extraction: { state: string; error: string | null } }>(`${url}/api/media/status/${media.id}`, 'GET', token);
        if (status.extraction.state === 'done') return since();
        if (status.extraction.state === 'failed') throw new Error(`extraction failed: ${status.extraction.error}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const ingest = api(`${url}/api/knowledge/audit/${sourceId}`, 'POST', token, { action: 'approve' }).then(since);
    let next = 0;
    const requests: autocannon.Request[] = [{ method: 'POST', path: '/api/exam/submit', setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) }];
    const submits = load({ url, method: 'POST', path: '/api/exam/submit', headers: { authorization: `Bearer ${candidateToken}` }, connections: 16, amount: SUBMITS, requests, timeout: 120 });
    const [extractSeconds, ingestSeconds, submitted] = await Promise.all([extraction, ingest, submits]);
    const seconds = since();
    const delay = await main.report();
    if (submitted.errors || submitted.non2xx) throw new Error(`submits failed: ${submitted.errors} errors, ${submitted.non2xx} non-2xx`);
    return { delay, extractSeconds, ingestSeconds, submitsPerSecond: submitted.rps, seconds };
  } finally {
    await main?.stop();
    await db?.destroy();
    await fsp.rm(dataDir, { recursive: true, force: true });
  }
}

const fmt = (n: number) => n.toFixed(1).padStart(6);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return (sorted[Math.floor(middle)]! + sorted[Math.ceil(middle)]!) / 2;
};

export default async function desktop(): Promise<void> {
  const prepared = performance.now();
  const pdf = await hundredMegabytePdf();
  const rand = random(7);
  const source = largeSource(vocabulary(rand), rand);
  console.log(`  inputs: ${(fs.statSync(pdf).size / 1024 / 1024).toFixed(0)} MB PDF, ${(Buffer.byteLength(source) / 1024 / 1024).toFixed(0)} MB knowledge source, ${SUBMITS} submits of 100 questions (ready in ${((performance.now() - prepared) / 1000).toFixed(0)} s)`);
  // Alternated (ABBAAB): drift on a shared machine (other load coming and going) weighs on both placements alike.
  const results: Record<'own-process' | 'in-process', RoundResult[]> = { 'own-process': [], 'in-process': [] };
  for (const mode of ['own-process', 'in-process', 'in-process', 'own-process', 'own-process', 'in-process'] as const) {
    const r = await round(mode, pdf, source);
    results[mode].push(r);
    console.log(
      `  ${mode.padEnd(12)} p50 ${fmt(r.delay.p50)} ms  p99 ${fmt(r.delay.p99)} ms  max ${fmt(r.delay.max)} ms  (1 ms resolution: p99 ${fmt(r.delay.fine.p99)} ms)  ` +
        `${r.delay.stalls} stalls > 50 ms (${(r.delay.stalledMs / 1000).toFixed(1)} s), busy ${r.delay.busy.toFixed(0)} %  | extraction ${r.extractSeconds.toFixed(1)} s, ingest ${r.ingestSeconds.toFixed(1)} s, ${r.submitsPerSecond.toFixed(0)} submits/s, ${r.seconds.toFixed(1)} s in all`,
    );
  }
  const summary = (rs: RoundResult[]) => ({
    p99: median(rs.map((r) => r.delay.p99)),
    fineP99: median(rs.map((r) => r.delay.fine.p99)),
    max: median(rs.map((r) => r.delay.max)),
    stalls: median(rs.map((r) => r.delay.stalls)),
    busy: median(rs.map((r) => r.delay.busy)),
    seconds: median(rs.map((r) => r.seconds)),
  });
  const own = summary(results['own-process']);
  const inProcess = summary(results['in-process']);
  for (const [label, r] of [['server in its own process (baseline)', own], ['server in the main process', inProcess]] as const) {
    console.log(`${label.padEnd(40)} main event-loop delay p99 ${fmt(r.p99)} ms (1 ms resolution ${fmt(r.fineP99)} ms), max ${fmt(r.max)} ms, ${r.stalls} stalls > 50 ms, busy ${r.busy.toFixed(0)} %, work done in ${r.seconds.toFixed(1)} s  (medians of 3)`);
  }
  console.log(
    `  in-process p99 = ${(inProcess.p99 / Math.max(own.p99, 0.01)).toFixed(1)}x the own-process p99; ${inProcess.p99 > THRESHOLD_MS ? `above the ${THRESHOLD_MS} ms limit: the server belongs in its own process` : `within the ${THRESHOLD_MS} ms limit`}` +
      `; the same work took ${(own.seconds / inProcess.seconds).toFixed(2)}x as long with the server in its own process`,
  );
}
