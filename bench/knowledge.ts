// Issue 4 knowledge benchmarks: (2) approving a 20 MB knowledge source vs a raw batched insert of the same chunks
// through the driver, and (3) search latency over 100,000 chunks, both in the same run as their baselines.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import { load, report, startBenchServer, type BenchContext } from './harness.js';
import { isPostgres } from '../server/db/knex.js';
import { now } from '../server/db/time.js';
import { replaceChunks, splitIntoChunks } from '../server/knowledge/chunks.js';
import { parseKnowledgeSource } from '../server/knowledge/format.js';
import { indexTerms } from '../server/knowledge/terms.js';
import { ftsDocument, tsvectorLiteral } from '../server/knowledge/fts.js';

const SOURCE_BYTES = 20 * 1024 * 1024;
const SEARCH_CHUNKS = 100_000;
const SEARCH_SAMPLES = 2000;

/** A small deterministic generator (mulberry32), so every run searches the same corpus. */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Characters of a wealth-management vocabulary; words are drawn from them with a Zipf-like skew so that, as in
// real text, a few words are everywhere and most are rare. Queries follow the same skew, so many of them are
// words found in most of the 100,000 chunks: the expensive case for any full-text ranking.
const HAN = '理财产品风险收益客户资产配置基金保险债券股票投资管理市场利率流动性期限年化净值回撤申购赎回合规销售顾问培训公司服务家庭财富规划信托养老教育储蓄现金稳健平衡进取评估测评等级适当性披露说明合同签约录音录像回访投诉监管机构银行证券分红复利通胀汇率波动组合分散长期短期目标预期历史业绩';
const LATIN = ['fund', 'bond', 'equity', 'yield', 'risk', 'client', 'portfolio', 'asset', 'allocation', 'liquidity', 'duration', 'annuity', 'insurance', 'pension', 'trust', 'deposit', 'dividend', 'inflation', 'volatility', 'compliance', 'suitability', 'disclosure', 'advisor', 'benchmark', 'redemption', 'subscription', 'maturity', 'coupon', 'credit', 'rating'];

export interface Vocabulary {
  word(): string;
  /** Query words from across the frequency range, Chinese and English. */
  queries(count: number): string[];
}

export function vocabulary(rand: () => number): Vocabulary {
  const han = Array.from(HAN);
  const words: string[] = [];
  for (let i = 0; i < 4000; i++) {
    const length = 2 + Math.floor(rand() * 3);
    words.push(Array.from({ length }, () => han[Math.floor(rand() * han.length)]).join(''));
  }
  words.push(...LATIN.flatMap((w) => [w, `${w}s`, `${w}ing`]));
  const zipfIndex = () => Math.min(words.length - 1, Math.floor(words.length ** rand()) - 1);
  return {
    word: () => words[zipfIndex()]!,
    queries: (count) =>
      Array.from({ length: count }, (_, i) => {
        const first = words[zipfIndex()]!;
        return i % 4 === 0 ? `${first} ${words[zipfIndex()]}` : first;
      }),
  };
}

export function paragraph(vocab: Vocabulary, rand: () => number, chars: number): string {
  let text = '';
  while (text.length < chars) {
    const sentence = Array.from({ length: 4 + Math.floor(rand() * 8) }, () => vocab.word()).join(rand() < 0.3 ? ' ' : '');
    text += `${sentence}${rand() < 0.5 ? '。' : '. '}`;
  }
  return text;
}

/** A realistic large source: sections of prose with a few product and question blocks among them. */
export function largeSource(vocab: Vocabulary, rand: () => number): string {
  const parts = ['---\ntitle: 大型产品知识库\ndomain: product\n---\n\n# 大型产品知识库\n'];
  let bytes = Buffer.byteLength(parts[0]!);
  for (let section = 0; bytes < SOURCE_BYTES; section++) {
    let part = `\n## 第${section}节 ${vocab.word()}\n\n${[600, 900, 400].map((n) => paragraph(vocab, rand, n)).join('\n\n')}\n`;
    if (section % 500 === 0) part += `\n## Product: 基准产品${section}\n- code: BENCH-${section}\n- category: capital_consulting\n- summary: ${vocab.word()}\n- risk_level: R2\n- 起购金额: 1万元\n`;
    if (section % 500 === 250) part += `\n## Question\n- type: single\n- stem: 第${section}节的要点是什么？\n- A. ${vocab.word()}\n- B. ${vocab.word()}\n- answer: A\n`;
    parts.push(part);
    bytes += Buffer.byteLength(part);
  }
  return parts.join('');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Sequential requests (one user): latency percentiles in ms. */
async function sequentialLatency(urls: string[], headers: Record<string, string>): Promise<{ p50: number; p95: number; p99: number }> {
  const times: number[] = [];
  for (const url of urls) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
}

export async function seedChunks(db: Knex, vocab: Vocabulary, rand: () => number): Promise<void> {
  const perSource = 1000;
  for (let source = 0; source < SEARCH_CHUNKS / perSource; source++) {
    const chunks = Array.from({ length: perSource }, () => paragraph(vocab, rand, 200 + Math.floor(rand() * 600)));
    await replaceChunks(db, { source_type: source % 2 ? 'media' : 'knowledge', source_id: 100_000 + source, title: `Seeded ${source}` }, chunks);
  }
}

/** (3) GET /api/knowledge/search over 100,000 chunks: one user's p95 vs bare Koa's, then throughput under load. */
async function searchScenario({ baseline, bareKoa }: BenchContext): Promise<void> {
  const rand = random(42);
  const vocab = vocabulary(rand);
  const server = await startBenchServer({ seed: (db) => seedChunks(db, vocab, rand) });
  try {
    const auth = { authorization: `Bearer ${server.adminToken}` };
    const queries = vocab.queries(SEARCH_SAMPLES);
    const paths = queries.map((q) => `/api/knowledge/search?q=${encodeURIComponent(q)}&limit=10`);
    const urls = paths.map((p) => server.url + p);
    let next = 0;
    const loaded = await load({ url: server.url, path: paths[0]!, headers: auth, duration: 5, requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }] });
    // Also drains what the load left queued, so the one-user figures start from an idle server.
    await sequentialLatency(urls.slice(0, 200), auth);
    const search = await sequentialLatency(urls, auth);
    const bare = await sequentialLatency(Array.from({ length: SEARCH_SAMPLES }, () => bareKoa.url), {});
    console.log(
      `${'search, 1 user, 100,000 chunks'.padEnd(44)} p50 ${search.p50.toFixed(2)} ms  p95 ${search.p95.toFixed(2)} ms  p99 ${search.p99.toFixed(2)} ms` +
        `  = p95 ${(search.p95 / bare.p95).toFixed(1)}x, p99 ${(search.p99 / bare.p99).toFixed(1)}x bare Koa (p95 ${bare.p95.toFixed(2)} ms)  [target p95 < 10 ms]`,
    );
    report('GET /api/knowledge/search (32 conns)', loaded, baseline);
  } finally {
    await server.close();
  }
}

/** A scratch copy of the chunk table and its full-text index, for the raw-insert baseline. */
async function createScratchTables(db: Knex): Promise<void> {
  if (isPostgres(db)) {
    await db.raw('CREATE TABLE bench_raw_chunks (LIKE knowledge_chunks INCLUDING ALL)');
    return;
  }
  const rows: { sql: string }[] = await db('sqlite_master').whereIn('tbl_name', ['knowledge_chunks', 'knowledge_chunks_fts']).whereNotNull('sql').select('sql');
  for (const { sql } of rows.filter((r) => !/_fts_(data|idx|docsize|config|content)/.test(r.sql))) {
    await db.raw(sql.replace(/knowledge_chunks/g, 'bench_raw_chunks'));
  }
}

/** The driver alone: knex batchInsert of ready-made rows (content and index text precomputed) in one transaction. */
async function rawInsert(db: Knex, chunks: string[]): Promise<number> {
  await createScratchTables(db);
  const created_at = now();
  const rows = chunks.map((content, i) => ({ id: i + 1, source_type: 'knowledge', source_id: 1, ordinal: i, title: 'raw', content, created_at }));
  const pg = isPostgres(db);
  const index = rows.map((row) => (pg ? tsvectorLiteral(indexTerms(row.content)) : ftsDocument(indexTerms(row.content))));
  const started = performance.now();
  await db.transaction(async (trx) => {
    if (pg) {
      await db.batchInsert('bench_raw_chunks', rows.map((row, i) => ({ ...row, tsv: trx.raw('CAST(? AS tsvector)', [index[i]!]) })), 500).transacting(trx);
    } else {
      await db.batchInsert('bench_raw_chunks', rows, 500).transacting(trx);
      await db.batchInsert('bench_raw_chunks_fts', rows.map((row, i) => ({ rowid: row.id, terms: index[i] })), 500).transacting(trx);
    }
  });
  const elapsed = performance.now() - started;
  await db.schema.dropTableIfExists('bench_raw_chunks_fts');
  await db.schema.dropTableIfExists('bench_raw_chunks');
  return elapsed;
}

/** (2) POST /api/knowledge/audit/{id} approve of a 20 MB source vs the raw batched insert of the same chunks. */
async function approveScenario(): Promise<void> {
  const rand = random(7);
  const text = largeSource(vocabulary(rand), rand);
  const server = await startBenchServer();
  try {
    const dir = path.join(server.dataDir, 'knowledge');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'warmup.md'), '# Warm-up\n\n## Product: W\n- code: WARM-1\n\n预热文本。\n');
    await fs.writeFile(path.join(dir, 'large.md'), text);
    const scan = await server.api<{ results: { file_path: string; source_id: number }[] }>('POST', '/api/knowledge/scan', server.adminToken);
    const idOf = (file: string) => scan.results.find((r) => r.file_path === file)!.source_id;
    await server.api('POST', `/api/knowledge/audit/${idOf('warmup.md')}`, server.adminToken, { action: 'approve' });

    const started = performance.now();
    const result = await server.api<{ chunks: number; products: number; questions: number }>('POST', `/api/knowledge/audit/${idOf('large.md')}`, server.adminToken, { action: 'approve' });
    const approveMs = performance.now() - started;

    const chunks = splitIntoChunks(parseKnowledgeSource(text, 'large').prose);
    if (chunks.length !== result.chunks) throw new Error(`approve stored ${result.chunks} chunks, the baseline has ${chunks.length}`);
    const rawMs = await rawInsert(server.db, chunks);
    const mb = Buffer.byteLength(text) / 1024 / 1024;
    console.log(`${'approve 20 MB source (HTTP, parse, ingest)'.padEnd(44)} ${approveMs.toFixed(0).padStart(6)} ms  ${(mb / (approveMs / 1000)).toFixed(1)} MB/s  ${result.chunks} chunks, ${result.products} products, ${result.questions} questions`);
    console.log(
      `${'raw batchInsert of the same chunks + index'.padEnd(44)} ${rawMs.toFixed(0).padStart(6)} ms  ${(mb / (rawMs / 1000)).toFixed(1)} MB/s` +
        `  = approve at ${((rawMs / approveMs) * 100).toFixed(1)} % of the raw insert throughput  [target >= 50 %]`,
    );
  } finally {
    await server.close();
  }
}

export default async function knowledge(ctx: BenchContext): Promise<void> {
  await searchScenario(ctx);
  await approveScenario();
}
