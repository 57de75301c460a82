import { startBenchServer, timedStream, type BenchContext, type Timed } from './harness.js';
import { startFakeModel } from '../tests/support/fake-model.js';

const SAMPLES = 300;
const WARMUP = 30;
const CONCURRENT_STREAMS = 50;
const REPLY = Array.from({ length: 20 }, (_, i) => `piece${i} `);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const line = (label: string, values: number[]) =>
  console.log(`${label.padEnd(50)} p50 ${percentile(values, 50).toFixed(2).padStart(6)} ms  p90 ${percentile(values, 90).toFixed(2).padStart(6)} ms  p99 ${percentile(values, 99).toFixed(2).padStart(6)} ms`);

/** A whole coach reply must be every piece as text events, then done. */
function isCompleteReply({ status, body }: Timed): boolean {
  if (status !== 200) return false;
  const events = body.trim().split('\n\n').map((block) => JSON.parse(block.replace(/^data: /, '')) as { type: string; content?: string });
  return events.at(-1)?.type === 'done' && events.filter((e) => e.type === 'text').map((e) => e.content).join('') === REPLY.join('');
}

/** Issue 5: time to the first chat event through /api/ai-chat/message vs straight from the same local fake model, and 50 concurrent streams. */
export default async function chat(_ctx: BenchContext): Promise<void> {
  const model = await startFakeModel({ chunks: REPLY });
  const server = await startBenchServer();
  try {
    await server.api('PUT', '/api/system/config', server.adminToken, { configs: { llm_base_url: model.baseUrl, llm_model: 'bench-model' } });
    const auth = { authorization: `Bearer ${server.adminToken}` };
    const throughServer = () => timedStream(`${server.url}/api/ai-chat/message`, auth, { message: 'How do I explain the fund fees to a customer?' });
    const direct = () =>
      timedStream(`${model.baseUrl}/chat/completions`, {}, { model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'How do I explain the fund fees to a customer?' }] });

    for (let i = 0; i < WARMUP; i++) await Promise.all([throughServer(), direct()]).then(([a, b]) => (a.status !== 200 || b.status !== 200 ? Promise.reject(new Error(a.body)) : undefined));
    const served: number[] = [];
    const straight: number[] = [];
    // Interleaved so both see the same machine state.
    for (let i = 0; i < SAMPLES; i++) {
      served.push((await throughServer()).firstEventMs);
      straight.push((await direct()).firstEventMs);
    }
    line('first event, fake model directly', straight);
    line('first event via POST /api/ai-chat/message', served);
    const added = percentile(served, 50) - percentile(straight, 50);
    console.log(`${'  added by the server at p50'.padEnd(50)} ${added.toFixed(2)} ms  [target < 5 ms]`);

    model.behave({ chunks: REPLY, delayMs: 5 });
    const directBurst = await Promise.all(Array.from({ length: CONCURRENT_STREAMS }, () => direct()));
    line(`${CONCURRENT_STREAMS} concurrent, fake model directly, first event`, directBurst.map((r) => r.firstEventMs));
    const started = performance.now();
    const streams = await Promise.allSettled(Array.from({ length: CONCURRENT_STREAMS }, () => throughServer()));
    const elapsed = performance.now() - started;
    const complete = streams.filter((s) => s.status === 'fulfilled' && isCompleteReply(s.value)).length;
    const firsts = streams.flatMap((s) => (s.status === 'fulfilled' ? [s.value.firstEventMs] : []));
    line(`${CONCURRENT_STREAMS} concurrent via the server, first event`, firsts);
    console.log(`${`${CONCURRENT_STREAMS} concurrent streams`.padEnd(50)} ${complete}/${CONCURRENT_STREAMS} complete in ${elapsed.toFixed(0)} ms, errors ${CONCURRENT_STREAMS - complete}  [target 0 errors]`);
  } finally {
    await server.close();
    await model.close();
  }
}
