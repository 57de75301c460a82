// Issue 13 benchmark: a coaching report of a one-hour call (1,200 speaker-labelled segments) over a knowledge base
// of 20,000 approved chunks and 500 products, on the real server (a child process). Reported against baselines of
// the same run: GET /api/audio/transcriptions/{id}/figures (reads the same transcription and computes the same
// figures: what any report must at least do), and for the model part the fake model called directly with the same
// reply size. Target: the deterministic report (no chat route) within 5× the figures endpoint, and the model part
// adding less than 50 ms to the model's own time.
import type { Knex } from 'knex';
import { startBenchServer, type BenchContext } from './harness.js';
import { startFakeModel } from '../tests/support/fake-model.js';
import { replaceChunks } from '../server/knowledge/chunks.js';
import { now } from '../server/db/time.js';
import { toneWav } from '../tests/api/audio-fixtures.js';
import { form } from '../tests/api/media-fixtures.js';

const SEGMENTS = 1_200;
const PRODUCTS = 500;
const CHUNKS = 20_000;
const SAMPLES = Number(process.env.BENCH_COACHING_SAMPLES ?? 20);

const REP_LINES = [
  'Good morning, this is Anna from Hengxin Bank, I am calling about the Steady Income Fund 17.',
  'The commission is 3.5 percent and the risk level is R2, so it suits a careful investor.',
  'The minimum investment is 10000 yuan and the lock-up period is 90 days.',
  'Can I ask what you plan to do with this money over the next year?',
];
const CUSTOMER_LINES = ['I am not sure, the fees sound high to me.', 'What happens if the market falls?', 'Let me think about it and talk to my wife.'];

/** A one-hour call: rep and customer take turns, three seconds each. */
const callSegments = () =>
  Array.from({ length: SEGMENTS }, (_, i) => {
    const rep = i % 2 === 0;
    const lines = rep ? REP_LINES : CUSTOMER_LINES;
    return { start: i * 3, end: i * 3 + 2.8, text: lines[i % lines.length]!, speaker: rep ? 'rep' : 'customer' };
  });

async function seed(db: Knex): Promise<void> {
  const stamp = now();
  const products = Array.from({ length: PRODUCTS }, (_, i) => ({
    code: `SIF-${i}`,
    name: `Steady Income Fund ${i}`,
    category: 'fund',
    status: 'active',
    summary: '',
    description: '',
    risk_level: `R${(i % 5) + 1}`,
    commission_rate: 1 + (i % 4) / 2,
    attributes: JSON.stringify({ 'minimum investment': '10000 yuan', 'lock-up period': '90 days' }),
    created_at: stamp,
    updated_at: stamp,
  }));
  for (let i = 0; i < products.length; i += 100) await db('products').insert(products.slice(i, i + 100));
  const perSource = 200;
  for (let source = 0; source < CHUNKS / perSource; source++) {
    const chunks = Array.from({ length: perSource }, (_, k) => {
      const n = (source * perSource + k) % PRODUCTS;
      return `Handbook > Steady Income Fund ${n}\n\nThe Steady Income Fund ${n} pays advisers a commission of ${1 + (n % 4) / 2} percent. Its risk level is R${(n % 5) + 1}. Returns are not guaranteed.`;
    });
    await replaceChunks(db, { source_type: 'knowledge', source_id: 200_000 + source, title: `Handbook ${source}` }, chunks);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(run: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const res = await run();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`status ${res.status}`);
  return performance.now() - started;
}

export default async function coaching(_ctx: BenchContext): Promise<void> {
  const segments = callSegments();
  const reply = JSON.stringify({
    objections: Array.from({ length: 10 }, (_, i) => ({ customer_segments: [i * 2 + 1], summary: '觉得费用高', rep_segments: [i * 2 + 2], handling: 'partly_answered', assessment: '…', better_answer: '…' })),
    contradictions: [],
    practice: [{ title: '练习回应费用异议', detail: '…', segments: [1] }],
  });
  const model = await startFakeModel({ transcription: { text: segments.map((s) => s.text).join(' '), language: 'en', segments }, chunks: [reply] });
  const server = await startBenchServer({ seed });
  try {
    const admin = server.adminToken;
    await server.api('POST', '/api/ai/routes', admin, { kind: 'audio', name: 'Cloud STT', provider: 'openai-compatible', base_url: model.baseUrl, model: 'whisper-1', is_local: false });
    const auth = { authorization: `Bearer ${admin}` };
    const transcription = (await (await fetch(`${server.url}/api/audio/transcribe`, { method: 'POST', headers: auth, body: form({ speakers: 'true' }, { name: 'call.wav', data: toneWav(0.1) }) })).json()) as { data: { id: number } };
    const id = transcription.data.id;
    const post = (body: unknown) => () => fetch(`${server.url}/api/coaching/calls`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const figures = () => fetch(`${server.url}/api/audio/transcriptions/${id}/figures`, { headers: auth });
    const direct = () => fetch(`${model.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }) });

    for (let i = 0; i < 3; i++) await Promise.all([timed(figures), timed(post({ transcription_id: id, rep_speaker: 'rep' }))]);
    const base: number[] = [];
    const deterministic: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      base.push(await timed(figures));
      deterministic.push(await timed(post({ transcription_id: id, rep_speaker: 'rep' })));
    }
    const b = median(base);
    const d = median(deterministic);
    console.log(`${'figures of the 1-hour call (baseline)'.padEnd(52)} p50 ${b.toFixed(1).padStart(7)} ms`);
    console.log(`${'coaching report, no chat route (deterministic)'.padEnd(52)} p50 ${d.toFixed(1).padStart(7)} ms  = ${(d / b).toFixed(2)}x baseline  [target ≤ 5x]`);

    await server.api('PUT', '/api/system/config', admin, { configs: { llm_base_url: model.baseUrl, llm_model: 'bench-model' } });
    const withModel: number[] = [];
    const straight: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      withModel.push(await timed(post({ transcription_id: id, rep_speaker: 'rep' })));
      straight.push(await timed(direct));
    }
    const m = median(withModel);
    const s = median(straight);
    console.log(`${'fake model called directly (same reply)'.padEnd(52)} p50 ${s.toFixed(1).padStart(7)} ms`);
    console.log(`${'coaching report with the model'.padEnd(52)} p50 ${m.toFixed(1).padStart(7)} ms  model part adds ${(m - d - s).toFixed(1)} ms over the model itself  [target < 50 ms]`);
  } finally {
    await server.close();
    await model.close();
  }
}
