// An exam day on a cluster (tests/support/cluster.ts), shared by `npm run bench -- exam-day` and
// tests/api/cluster-exam-day.test.ts: N candidates, each on their own schedule of a compressed exam, through the
// cluster's round-robin proxy. Everyone starts in the first tenth of the exam, autosaves
// (PUT /api/exam/sessions/{id}/answers) a few times, each time with more questions answered, and submits in the exam's
// last minute (compressed with the rest). A failed request (a node killed under it) is sent again, as the trainee
// page does. Then the day is checked through the API: every session resumed (GET /api/exam/sessions/{id}) shows the
// last acknowledged autosave, every candidate has exactly one record (GET /api/system/exam-records?paper_id=) whose
// score is the one their answers earn, and every submit of a session answered with the same record.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import knexFactory from 'knex';
import { hashPassword } from '../../server/auth/passwords.js';
import { signToken } from '../../server/auth/tokens.js';
import { scoreOf } from '../../server/exams/grading.js';
import { stopCli } from './cli.js';
import { POSTGRES_URL, type Cluster } from './cluster.js';

/** What the nodes of an exam-day cluster need: a secret the day signs its pre-issued tokens with, and the candidates' own addresses (X-Forwarded-For, as the load balancer sets it) for login throttling. */
export const EXAM_DAY_ENV = { JWT_SECRET: 'exam-day-secret-of-the-load-generator-0001', TRUST_PROXY: '1' } as const;

const PASSWORD = 'exam-day-pass';
const TOTAL_SCORE = 100;
/** The paper's time limit; the day runs it in `seconds`. Its last minute is when everyone submits. */
const DURATION_MINUTES = 30;
const RIGHT = 'B';
const WRONG = 'A';

export interface ExamDayOptions {
  candidates: number;
  /** Real seconds the whole exam takes (its 30 minutes compressed into them). */
  seconds: number;
  /** Autosaves per candidate between the start and the submit. */
  autosaves: number;
  questions: number;
  /** How many candidates log in with their password; the others start with a token issued for them (a login per candidate costs an argon2 hash of ~50 ms, minutes of CPU for thousands). All by default. */
  logins?: number;
  /** Sockets the load generator keeps to the proxy (a browser's requests beyond them wait, as behind a busy NAT). */
  connections: number;
  /** Kills a node (`killNode`, default 0) with SIGKILL at this fraction of the exam. */
  killAt?: number;
  killNode?: number;
  /** Every k-th candidate sends their submit twice at once, once to each node directly (through the proxy with killAt). */
  doubleSubmitEvery?: number;
  /** Called with each line of progress (the bench prints them). */
  log?: (line: string) => void;
}

export type Kind = 'login' | 'start' | 'autosave' | 'submit';

export interface ExamDayResult {
  /** Milliseconds from the first attempt to the acknowledgement, retries included, per kind of request. */
  latencies: Record<Kind, number[]>;
  /** Per kind, acknowledged requests over the time from the first one sent to the last one acknowledged. */
  rates: Record<Kind, number>;
  /** Acknowledged requests over the time from the first start to the last submit acknowledged. */
  rps: number;
  seconds: number;
  /** Attempts that failed and were sent again (a killed node's requests). */
  retries: number;
  /** Everything the checks after the day found wrong; empty on a good day. */
  problems: string[];
}

interface Answer {
  status: number;
  body: { data: any; message?: string; error?: string | null };
}

class Client {
  readonly agent: http.Agent;
  constructor(connections: number) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  }

  /** One attempt; a network failure (a killed node, a reset connection) answers status 0. */
  send(base: string, method: string, path: string, options: { token?: string; body?: unknown; address?: string } = {}): Promise<Answer> {
    const url = new URL(path, base);
    const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
    const headers: http.OutgoingHttpHeaders = {
      ...(payload && { 'content-type': 'application/json', 'content-length': payload.length }),
      ...(options.token && { authorization: `Bearer ${options.token}` }),
      ...(options.address && { 'x-forwarded-for': options.address }),
    };
    return new Promise((resolve) => {
      const req = http.request({ host: url.hostname, port: url.port, method, path: url.pathname + url.search, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', () => resolve({ status: 0, body: { data: null, message: 'answer cut' } }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          try {
            resolve({ status: res.statusCode!, body: JSON.parse(text) });
          } catch {
            resolve({ status: res.statusCode === 200 ? 0 : res.statusCode!, body: { data: null, message: text.slice(0, 200) } });
          }
        });
      });
      req.on('error', (error) => resolve({ status: 0, body: { data: null, message: error.message } }));
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Network failures and 5xx (a node gone under the request) are sent again; 4xx are answers. */
const retriable = (status: number) => status === 0 || status >= 500;

interface Candidate {
  index: number;
  username: string;
  address: string;
  token?: string;
  session?: string;
  /** The answers of the last acknowledged autosave. */
  acknowledged?: Record<string, string>;
  /** Record ids of every submit answer of the session. */
  submits: { record_id: number | null; score: number }[];
  /** The score this candidate's answers earn: the first `right` questions right, the others wrong. */
  right: number;
}

export interface ExamDayPaper {
  paperId: number;
  adminToken: string;
}

/** The day's question bank, paper and candidates (inserted with one shared password hash, as a bulk import would). */
export async function prepareExamDay(cluster: Cluster, options: Pick<ExamDayOptions, 'candidates' | 'questions'>, tag: string): Promise<ExamDayPaper & { usernames: string[] }> {
  const client = new Client(4);
  try {
    const login = await client.send(cluster.url, 'POST', '/api/auth/login', { body: { username: 'admin', password: 'admin-pass-123' }, address: '10.255.255.254' });
    if (login.status !== 200) throw new Error(`admin login: ${login.status} ${login.body.message}`);
    const adminToken = login.body.data.token as string;
    const domain = `exam_day_${tag}`;
    const options4 = ['A', 'B', 'C', 'D'].map((key) => ({ key, text: `选项 ${key}` }));
    for (let i = 0; i < options.questions; i++) {
      const body = { domain, course_id: null, type: 'single', stem: `考试日第 ${i + 1} 题`, explanation: '因为如此。', options: options4, answer: [RIGHT] };
      const added = await client.send(cluster.url, 'POST', '/api/exam/questions', { token: adminToken, body });
      if (added.status !== 201) throw new Error(`question: ${added.status} ${added.body.message}`);
    }
    const paperBody = { name: `考试日 ${tag}`, type: 'formal', domain, question_count: options.questions, total_score: TOTAL_SCORE, pass_score: 60, duration_minutes: DURATION_MINUTES, randomize: false };
    const paper = await client.send(cluster.url, 'POST', '/api/exam/papers', { token: adminToken, body: paperBody });
    if (paper.status !== 201) throw new Error(`paper: ${paper.status} ${paper.body.message}`);
    const usernames = Array.from({ length: options.candidates }, (_, i) => `${tag}_${i}`);
    const db = knexFactory({ client: 'pg', connection: POSTGRES_URL, searchPath: [cluster.schema], pool: { min: 0, max: 1 } });
    try {
      const hash = await hashPassword(PASSWORD);
      const stamp = new Date().toISOString();
      const rows = usernames.map((username, i) => ({ username, password_hash: hash, full_name: `考生 ${i}`, role: 'employee', status: 'active', department: '', created_at: stamp, updated_at: stamp }));
      for (let i = 0; i < rows.length; i += 500) await db('users').insert(rows.slice(i, i + 500));
    } finally {
      await db.destroy();
    }
    return { paperId: paper.body.data.id as number, adminToken, usernames };
  } finally {
    client.close();
  }
}

/** The answers of the first `answered` questions, as the candidate will finally give them. */
function answersOf(questionIds: number[], right: number, answered: number): Record<string, string> {
  return Object.fromEntries(questionIds.slice(0, answered).map((id, i) => [String(id), i < right ? RIGHT : WRONG]));
}

/** The ids of the users named, looked up in the cluster's schema (for tokens issued without a login). */
async function userIds(cluster: Cluster, usernames: string[]): Promise<Map<string, number>> {
  const db = knexFactory({ client: 'pg', connection: POSTGRES_URL, searchPath: [cluster.schema], pool: { min: 0, max: 1 } });
  try {
    const rows = (await db('users').whereIn('username', usernames).select('id', 'username')) as { id: number; username: string }[];
    return new Map(rows.map((r) => [r.username, Number(r.id)]));
  } finally {
    await db.destroy();
  }
}

export async function runExamDay(cluster: Cluster, options: ExamDayOptions, tag: string): Promise<ExamDayResult> {
  const log = options.log ?? (() => undefined);
  const preparing = performance.now();
  const prepared = await prepareExamDay(cluster, options, tag);
  log(`${options.candidates} candidates and their paper prepared in ${((performance.now() - preparing) / 1000).toFixed(1)} s`);
  const logins = Math.min(options.logins ?? options.candidates, options.candidates);
  const ids = logins < options.candidates ? await userIds(cluster, prepared.usernames.slice(logins)) : new Map<string, number>();
  const candidates: Candidate[] = prepared.usernames.map((username, index) => ({
    index,
    username,
    // Each candidate their own address, as a load balancer's X-Forwarded-For gives it (RFC 1918, unique per index).
    address: `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
    token: ids.has(username) ? signToken(EXAM_DAY_ENV.JWT_SECRET, ids.get(username)!, 'employee', 6 * 3600) : undefined,
    submits: [],
    right: index % (options.questions + 1),
  }));
  const latencies: Record<Kind, number[]> = { login: [], start: [], autosave: [], submit: [] };
  const spans = Object.fromEntries((['login', 'start', 'autosave', 'submit'] as const).map((kind) => [kind, { first: Infinity, last: 0 }])) as Record<Kind, { first: number; last: number }>;
  const problems: string[] = [];
  let retries = 0;
  const reasons = new Map<string, number>();
  const client = new Client(options.connections);

  /** Sends until an answer that is not a network failure or 5xx (at most 20 tries), timing it from the first try. */
  const until = async (kind: Kind, method: string, path: string, init: { token?: string; body?: unknown; address?: string }, base = cluster.url): Promise<Answer> => {
    const started = performance.now();
    spans[kind].first = Math.min(spans[kind].first, started);
    let answer = await client.send(base, method, path, init);
    for (let tries = 1; retriable(answer.status) && tries < 20; tries++) {
      retries++;
      const reason = `${method} ${path.replace(/[0-9a-f-]{36}/, '{id}')}: ${answer.status} ${answer.body.message ?? ''}`;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      await sleep(100 * tries);
      answer = await client.send(base, method, path, init);
    }
    const done = performance.now();
    spans[kind].last = Math.max(spans[kind].last, done);
    latencies[kind].push(done - started);
    return answer;
  };

  // Logins happen before the exam opens (the morning): their figures are their own, not part of the exam's schedule.
  const loginStarted = performance.now();
  await Promise.all(
    candidates.slice(0, logins).map(async (c) => {
      const answer = await until('login', 'POST', '/api/auth/login', { body: { username: c.username, password: PASSWORD }, address: c.address });
      if (answer.status !== 200) problems.push(`${c.username}: login ${answer.status} ${answer.body.message}`);
      else c.token = answer.body.data.token as string;
    }),
  );
  if (logins) log(`${logins} logins in ${((performance.now() - loginStarted) / 1000).toFixed(1)} s`);

  const windowMs = options.seconds * 1000;
  const lastMinuteMs = windowMs / DURATION_MINUTES;
  const t0 = performance.now() + 200;
  const at = (ms: number) => sleep(t0 + ms - performance.now());
  let lastAck = t0;
  const examOf = async (c: Candidate) => {
    if (!c.token) return;
    await at(Math.random() * windowMs * 0.1);
    const started = await until('start', 'POST', '/api/exam/start', { token: c.token, body: { paper_id: prepared.paperId }, address: c.address });
    if (started.status !== 200) return void problems.push(`${c.username}: start ${started.status} ${started.body.message}`);
    c.session = started.body.data.session_id as string;
    const questionIds = (started.body.data.questions as { id: number }[]).map((q) => q.id);
    for (let k = 1; k <= options.autosaves; k++) {
      await at(windowMs * (0.1 + (0.8 * (k - Math.random() * 0.5)) / options.autosaves));
      const answers = answersOf(questionIds, c.right, Math.ceil((questionIds.length * k) / (options.autosaves + 1)));
      const saved = await until('autosave', 'PUT', `/api/exam/sessions/${c.session}/answers`, { token: c.token, body: { answers }, address: c.address });
      if (saved.status === 200) c.acknowledged = answers;
      else problems.push(`${c.username}: autosave ${saved.status} ${saved.body.message}`);
    }
    await at(windowMs - lastMinuteMs * Math.random());
    const body = { session_id: c.session, answers: answersOf(questionIds, c.right, questionIds.length), time_spent_sec: DURATION_MINUTES * 60 - 30 };
    const twice = options.doubleSubmitEvery && c.index % options.doubleSubmitEvery === 0;
    // Twice at once to each node directly; with a node killed, twice through the proxy (the survivor gets both).
    const bases = !twice ? [cluster.url] : options.killAt === undefined ? cluster.nodes.map((n) => n.url) : [cluster.url, cluster.url];
    const answers = await Promise.all(bases.map((base) => until('submit', 'POST', '/api/exam/submit', { token: c.token, body, address: c.address }, base)));
    for (const answer of answers) {
      if (answer.status !== 200) problems.push(`${c.username}: submit ${answer.status} ${answer.body.message}`);
      else c.submits.push({ record_id: answer.body.data.record_id as number | null, score: answer.body.data.score as number });
    }
    lastAck = Math.max(lastAck, performance.now());
  };
  let killed: Promise<void> | undefined;
  const killer =
    options.killAt === undefined
      ? undefined
      : setTimeout(() => {
          log(`SIGKILL to node ${options.killNode ?? 0} at ${(options.killAt! * 100).toFixed(1)} % of the exam`);
          killed = stopCli(cluster.nodes[options.killNode ?? 0]!.child, 'SIGKILL');
        }, t0 - performance.now() + windowMs * options.killAt);
  await Promise.all(candidates.map(examOf));
  clearTimeout(killer);
  await killed;
  const seconds = (lastAck - t0) / 1000;
  const acknowledged = latencies.start.length + latencies.autosave.length + latencies.submit.length;
  client.close();

  log(`exam of ${options.seconds} s ran in ${seconds.toFixed(1)} s, ${retries} attempts sent again${reasons.size ? `: ${[...reasons].map(([reason, count]) => `${count} × ${reason}`).join('; ')}` : ''}`);
  const checking = performance.now();
  problems.push(...(await checkDay(cluster, prepared, candidates, options)));
  log(`checked in ${((performance.now() - checking) / 1000).toFixed(1)} s`);
  const rates = Object.fromEntries(Object.entries(spans).map(([kind, span]) => [kind, latencies[kind as Kind].length / Math.max(0.001, (span.last - span.first) / 1000)])) as Record<Kind, number>;
  return { latencies, rates, rps: acknowledged / seconds, seconds, retries, problems };
}

/** The checks after the day, through the API (the surviving node answers for a killed one). */
async function checkDay(cluster: Cluster, paper: ExamDayPaper, candidates: Candidate[], options: ExamDayOptions): Promise<string[]> {
  const problems: string[] = [];
  const client = new Client(8);
  const expected = (c: Candidate) => scoreOf(TOTAL_SCORE, c.right, options.questions);
  try {
    // Each session resumed: the last acknowledged autosave is there.
    for (let i = 0; i < candidates.length; i += 8) {
      await Promise.all(
        candidates.slice(i, i + 8).map(async (c) => {
          if (!c.session) return;
          const state = await client.send(cluster.url, 'GET', `/api/exam/sessions/${c.session}`, { token: c.token });
          if (state.status !== 200) return void problems.push(`${c.username}: resume ${state.status} ${state.body.message}`);
          if (JSON.stringify(state.body.data.saved_answers) !== JSON.stringify(c.acknowledged ?? {})) {
            problems.push(`${c.username}: saved_answers ${JSON.stringify(state.body.data.saved_answers)}, last acknowledged ${JSON.stringify(c.acknowledged)}`);
          }
          if (!state.body.data.submitted_at) problems.push(`${c.username}: session not submitted`);
        }),
      );
    }
    // Every submit of a session answered with its one record and the right score.
    for (const c of candidates) {
      if (!c.submits.length) problems.push(`${c.username}: no submit acknowledged`);
      if (new Set(c.submits.map((s) => s.record_id)).size > 1) problems.push(`${c.username}: submits answered with records ${c.submits.map((s) => s.record_id).join(', ')}`);
      for (const s of c.submits) if (s.score !== expected(c)) problems.push(`${c.username}: submit answered score ${s.score}, expected ${expected(c)}`);
    }
    // Exactly one record per candidate, with the right score.
    const records: { user_id: number; username: string; score: number; session_id: string; id: number }[] = [];
    for (let page = 1; ; page++) {
      const listed = await client.send(cluster.url, 'GET', `/api/system/exam-records?paper_id=${paper.paperId}&size=200&page=${page}`, { token: paper.adminToken });
      if (listed.status !== 200) {
        problems.push(`exam-records page ${page}: ${listed.status} ${listed.body.message}`);
        break;
      }
      records.push(...listed.body.data.items);
      if (records.length >= listed.body.data.total || !listed.body.data.items.length) break;
    }
    const byUser = new Map<string, typeof records>();
    for (const r of records) byUser.set(r.username, [...(byUser.get(r.username) ?? []), r]);
    for (const c of candidates) {
      const mine = byUser.get(c.username) ?? [];
      if (mine.length !== 1) problems.push(`${c.username}: ${mine.length} records`);
      else if (mine[0]!.score !== expected(c)) problems.push(`${c.username}: record score ${mine[0]!.score}, expected ${expected(c)}`);
      else if (mine[0]!.session_id !== c.session) problems.push(`${c.username}: record of session ${mine[0]!.session_id}, not ${c.session}`);
      else if (c.submits.some((s) => s.record_id !== mine[0]!.id)) problems.push(`${c.username}: a submit answered record ${c.submits.map((s) => s.record_id).join(', ')}, stored ${mine[0]!.id}`);
    }
    if (records.length !== candidates.length) problems.push(`${records.length} records for ${candidates.length} candidates`);
  } finally {
    client.close();
  }
  return problems;
}
