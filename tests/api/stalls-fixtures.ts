// The heavy requests of issue 34 for the stall tests and `npm run bench -- stalls`: a rep's transcript at the allowed
// maximum (20,000 speaker-labelled segments, as the fake cloud route answers a transcription) and a probe of
// GET /api/health that keeps asking while a heavy request runs and reports how long its slowest answers took.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import type { TestServer } from '../support/server.js';
import type { FakeModel } from '../support/fake-model.js';
import { form } from './media-fixtures.js';
import { toneWav } from './audio-fixtures.js';

export const MAX_SEGMENTS = 20_000;

const REP_LINES = [
  '您好，我是恒信银行的理财经理王芳，今天想跟您聊聊稳盈理财。',
  '您的风险承受能力怎么样？做过风险测评吗？',
  '这个产品风险等级是R2，过往业绩不代表未来表现，投资有风险。',
  '认购费是百分之零点五，管理费每年０．８％。',
  '产品有十五天冷静期，冷静期内可以无条件撤销。',
  '这个产品不保本，也不能保证收益，预期年化收益率三点五％左右。',
];
const CUSTOMER_LINES = ['我是C2，谨慎型的。', '保本吗？收益能到多少？', '手续费有点高啊。', '我再考虑一下。', '要是市场跌了怎么办呢'];

/** Alternating rep and customer, every tenth customer turn starting before the rep finished (an interruption). */
export function bigSegments(count = MAX_SEGMENTS): { start: number; end: number; text: string; speaker: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const rep = i % 2 === 0;
    const lines = rep ? REP_LINES : CUSTOMER_LINES;
    const start = i * 2.5 - (!rep && i % 20 === 1 ? 1 : 0);
    return { start, end: i * 2.5 + 2.2, text: lines[(i * 7) % lines.length]!, speaker: rep ? 'rep' : 'customer' };
  });
}

/** A transcription of `token`'s with `count` segments (through a cloud route on `fake`); returns its id. */
export async function bigTranscription(ts: TestServer, fake: FakeModel, token: string, count = MAX_SEGMENTS): Promise<number> {
  const segments = bigSegments(count);
  fake.behave({ transcription: { text: segments.map((s) => s.text).join(''), language: 'zh', segments } });
  const res = await ts.api.post('/api/audio/transcribe', { token, form: form({ speakers: 'true' }, { name: 'long-call.wav', data: toneWav(0.5) }) });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.segments.length, count);
  return res.body.data.id as number;
}

export interface Probed<T> {
  result: T;
  /** Milliseconds of each health answer during the request. */
  latencies: number[];
  worst: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/**
 * Runs `request` while asking GET /api/health one probe after another (each waits `gapMs` after the previous answer),
 * and until the request has answered; a request that holds the event loop shows as one slow probe.
 */
export async function probeHealth<T>(baseUrl: string, request: () => Promise<T>, gapMs = 5): Promise<Probed<T>> {
  const latencies: number[] = [];
  let done = false;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${baseUrl}/api/health`);
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
  })();
  // A probe in flight before the request starts, so a stall at its very beginning is measured too.
  await new Promise((resolve) => setTimeout(resolve, gapMs));
  let result: T;
  try {
    result = await request();
  } finally {
    done = true;
    await probing;
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return { result, latencies, worst: sorted.at(-1) ?? 0, p99: percentile(sorted, 99) };
}
