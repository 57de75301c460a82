// Issue 35: a role-play text turn (rep's words flagged by the compliance engine, the model customer's answer, the
// session stored) against GET /api/products in the same run, and the delay between the model's first token and the
// first byte of the customer's reply leaving the server when the turn is streamed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { percentile, startBenchServer, type BenchContext } from './harness.js';

const SAMPLES = 200;
const WARMUP = 20;
const STREAM_SAMPLES = 60;
const REPLY = ['那', '会不会', '亏本啊？'];

/** An instant OpenAI-compatible model that notes when it wrote each reply's first token (this process's clock). */
async function instantModel(): Promise<{ baseUrl: string; firstTokens: number[]; close(): Promise<void> }> {
  const firstTokens: number[] = [];
  const server = http.createServer(async (req, res) => {
    for await (const _ of req);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const [i, piece] of REPLY.entries()) {
      if (i === 0) firstTokens.push(performance.now());
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    firstTokens,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const line = (label: string, values: number[]) => console.log(`${label.padEnd(52)} p50 ${percentile(values, 0.5).toFixed(2).padStart(7)} ms  p90 ${percentile(values, 0.9).toFixed(2).padStart(7)} ms`);

export default async function roleplay(_ctx: BenchContext): Promise<void> {
  const model = await instantModel();
  const server = await startBenchServer();
  try {
    const token = server.adminToken;
    await server.api('POST', '/api/ai/routes', token, { kind: 'chat', name: 'Instant', provider: 'openai-compatible', base_url: model.baseUrl, model: 'bench' });
    const product = await server.api<{ id: number }>('POST', '/api/products', token, { code: 'WY-1', name: '稳盈理财', category: 'wealth', risk_level: 'R2' });
    const scenario = await server.api<{ id: number }>('POST', '/api/roleplay/scenarios', token, {
      title: '保本顾虑',
      product_id: product.id,
      persona: { name: '李阿姨', profile: '退休教师', risk_tolerance: 'C2' },
      opening: '收益怎么样？',
      objections: ['会不会亏本？', '手续费高不高？'],
      closing: '我再想想。',
      criteria: [{ key: 'disclose_risk', label: '揭示风险', weight: 1, rule_key: 'risk_disclosure' }],
      max_turns: 100,
    });
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    let session = 0;
    let turns = 100;
    const turn = async (accept?: string) => {
      if (turns >= 100) {
        session = (await server.api<{ id: number }>('POST', '/api/roleplay/sessions', token, { scenario_id: scenario.id })).id;
        turns = 0;
      }
      turns++;
      return fetch(`${server.url}/api/roleplay/sessions/${session}/turns`, { method: 'POST', headers: { ...auth, ...(accept && { accept }) }, body: JSON.stringify({ text: '这个产品不保本，投资有风险，过往业绩不代表未来表现。' }) });
    };
    const timed = async (request: () => Promise<Response>) => {
      const started = performance.now();
      const res = await request();
      await res.text();
      if (!res.ok) throw new Error(`status ${res.status}`);
      return performance.now() - started;
    };
    const products = () => fetch(`${server.url}/api/products`, { headers: auth });

    for (let i = 0; i < WARMUP; i++) await Promise.all([timed(() => turn()), timed(products)]);
    const turnMs: number[] = [];
    const productMs: number[] = [];
    // Interleaved so both see the same machine state.
    for (let i = 0; i < SAMPLES; i++) {
      productMs.push(await timed(products));
      turnMs.push(await timed(() => turn()));
    }
    line('GET /api/products', productMs);
    line('POST /api/roleplay/sessions/:id/turns (text, JSON)', turnMs);
    const ratio = percentile(turnMs, 0.5) / percentile(productMs, 0.5);
    console.log(`${'  text turn p50 / products p50'.padEnd(52)} ${ratio.toFixed(2)}×  [target ≤ 3×]`);

    const gaps: number[] = [];
    for (let i = 0; i < STREAM_SAMPLES; i++) {
      const res = await turn('text/event-stream');
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      let firstText = Number.NaN;
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        text += decoder.decode(read.value, { stream: true });
        if (Number.isNaN(firstText) && text.includes('"type":"text"')) firstText = performance.now();
      }
      gaps.push(firstText - model.firstTokens.at(-1)!);
    }
    line('model first token → first reply byte at the client', gaps);
    console.log(`${'  p90 of that gap'.padEnd(52)} ${percentile(gaps, 0.9).toFixed(2)} ms  [target ≤ 50 ms]`);
  } finally {
    await server.close();
    await model.close();
  }
}
