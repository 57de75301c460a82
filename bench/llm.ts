// Issue 14: the local chat model through the server against node-llama-cpp called directly, in the same run, on the
// same tiny GGUF model and the same prompt (the coach's, built by the same code from the same database): tokens per
// second of generation (target ≥ 0.9× direct), the time to the first token the server adds (target < 20 ms), and
// GET /api/health answering with p99 < 50 ms while the model generates. Both sides use the same threads and
// sampling; runs alternate so both see the same machine state.
import fs from 'node:fs/promises';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { getLlama, LlamaChat, type ChatHistoryItem } from 'node-llama-cpp';
import { describeThreadCpu, percentile, probeHealth, startBenchServer, threadCpuSeconds, threadCpuSince, timedStream } from './harness.js';
import { writeTinyLlamaModel } from '../tests/support/tiny-llama-model.js';
import { coachPrompt } from '../server/chat/coach.js';

const RUNS = 10;
const HEALTH_RUNS = 8;
const MAX_TOKENS = 1000;
const MESSAGE = 'How do I explain the fund fees to a customer?';

interface Run {
  firstTokenMs: number;
  /** From the first token to the end of the reply (the time to the first token is reported on its own). */
  tokensPerSecond: number;
  /** From the request to the end of the reply. */
  overallTokensPerSecond: number;
}

const run = (tokens: number, firstTokenMs: number, totalMs: number): Run => ({
  firstTokenMs,
  tokensPerSecond: tokens / ((totalMs - firstTokenMs) / 1000),
  overallTokensPerSecond: tokens / (totalMs / 1000),
});

/** The coach's event stream: time to the first event (a text piece: nothing queues here) and to its end. */
async function viaServer(url: string, token: string): Promise<{ firstTokenMs: number; totalMs: number }> {
  const started = performance.now();
  const reply = await timedStream(`${url}/api/ai-chat/message`, { authorization: `Bearer ${token}` }, { message: MESSAGE });
  if (!reply.body.includes('"type":"done"')) throw new Error(`the reply did not finish: ${reply.body.slice(-300)}`);
  return { firstTokenMs: reply.firstEventMs, totalMs: performance.now() - started };
}

const history = (messages: { role: string; content: string }[]): ChatHistoryItem[] => [
  ...messages.map((m): ChatHistoryItem => (m.role === 'system' ? { type: 'system', text: m.content } : m.role === 'user' ? { type: 'user', text: m.content } : { type: 'model', response: [m.content] })),
  { type: 'model', response: [] },
];

const median = (values: number[]) => percentile(values, 0.5);

export default async function llm(): Promise<void> {
  const server = await startBenchServer();
  try {
    const file = path.join(server.dataDir, 'models', 'tiny-bench.gguf');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await writeTinyLlamaModel(file);
    await server.api('PUT', '/api/system/config', server.adminToken, { configs: { local_llm_max_tokens: MAX_TOKENS } });
    await server.api('POST', '/api/ai/routes', server.adminToken, { name: 'On this laptop', kind: 'chat', provider: 'local-llama', model: 'tiny-bench.gguf' });
    const clearHistory = () => server.api('DELETE', '/api/ai-chat/history', server.adminToken);
    const lastCall = async () => (await server.api<{ items: { completion_tokens: number }[] }>('GET', '/api/ai/calls?size=1', server.adminToken)).items[0]!;

    // Direct: the same model, context shape, threads and sampling as the server's worker, on the coach's prompt.
    const admin = (await server.db('users').where({ username: 'admin' }).first()) as { id: number; role: 'admin' };
    const { messages } = await coachPrompt(server.db, { id: admin.id, role: admin.role }, { message: MESSAGE });
    const llama = await getLlama({ gpu: false, build: 'never' });
    const model = await llama.loadModel({ modelPath: file, gpuLayers: 0 });
    const context = await model.createContext({ contextSize: 2048, sequences: 1, threads: Math.max(1, availableParallelism() - 1) });
    const chat = new LlamaChat({ contextSequence: context.getSequence() });
    const direct = async (): Promise<Run> => {
      const started = performance.now();
      let first = Number.NaN;
      const before = chat.sequence.tokenMeter.getState().usedOutputTokens;
      // Text, as the server streams it (and any caller showing a reply needs).
      await chat.generateResponse(history(messages), {
        maxTokens: MAX_TOKENS,
        temperature: 0.7,
        onTextChunk: () => {
          if (Number.isNaN(first)) first = performance.now();
        },
      });
      const tokens = chat.sequence.tokenMeter.getState().usedOutputTokens - before;
      return run(tokens, first - started, performance.now() - started);
    };
    const served = async (): Promise<Run> => {
      await clearHistory();
      const { firstTokenMs, totalMs } = await viaServer(server.url, server.adminToken);
      return run((await lastCall()).completion_tokens, firstTokenMs, totalMs);
    };

    // Warm both (the server's worker loads the model on its first reply).
    await served();
    await direct();
    // Throughput and first token: both sides alone, alternating. Health: asked only while the server generates, in
    // runs of their own (the probe's requests would otherwise load one side of the comparison only).
    const results = { direct: [] as Run[], served: [] as Run[] };
    for (let i = 0; i < RUNS; i++) {
      results.served.push(await served());
      results.direct.push(await direct());
    }
    const generatingFrom = performance.now();
    const cpuBefore = threadCpuSeconds(server.pid);
    const probe = probeHealth(server.url);
    for (let i = 0; i < HEALTH_RUNS; i++) await served();
    const health = await probe.stop();
    const cpuUsed = threadCpuSince(server.pid, cpuBefore);
    const generatingMs = performance.now() - generatingFrom;
    // The same probe on the idle server, as long as the generating one ran: this machine's own noise, for the ratio.
    const idleProbe = probeHealth(server.url);
    await new Promise((resolve) => setTimeout(resolve, generatingMs));
    const idle = await idleProbe.stop();
    await context.dispose();
    await model.dispose();

    const tps = (runs: Run[]) => median(runs.map((r) => r.tokensPerSecond));
    const overall = (runs: Run[]) => median(runs.map((r) => r.overallTokensPerSecond));
    const ttft = (runs: Run[]) => median(runs.map((r) => r.firstTokenMs));
    const ratio = tps(results.served) / tps(results.direct);
    const added = ttft(results.served) - ttft(results.direct);
    const p99 = percentile(health, 0.99);
    const idleP99 = percentile(idle, 0.99);
    console.log(`tiny GGUF model, ${MAX_TOKENS} tokens a reply, ${RUNS} runs each alternating, medians`);
    console.log(`node-llama-cpp directly                      ${tps(results.direct).toFixed(0).padStart(6)} tokens/s  first token ${ttft(results.direct).toFixed(1)} ms`);
    console.log(`POST /api/ai-chat/message (local route)      ${tps(results.served).toFixed(0).padStart(6)} tokens/s  first token ${ttft(results.served).toFixed(1)} ms`);
    console.log(`  throughput through the server              ${ratio.toFixed(2)}x direct  [target >= 0.9x] ${ratio >= 0.9 ? 'ok' : 'MISSED'}`);
    console.log(`  request to last token (with the first token, prompt building and storing the exchange): ${(overall(results.served) / overall(results.direct)).toFixed(2)}x direct`);
    console.log(`  first token added by the server            ${added.toFixed(1)} ms  [target < 20 ms] ${added < 20 ? 'ok' : 'MISSED'}`);
    console.log(`GET /api/health while generating: ${health.length} requests, p50 ${percentile(health, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...health).toFixed(1)} ms  [target < 50 ms] ${p99 < 50 ? 'ok' : 'MISSED'}`);
    console.log(`GET /api/health on the idle server:  ${idle.length} requests, p50 ${percentile(idle, 0.5).toFixed(1)} ms, p99 ${idleP99.toFixed(1)} ms, max ${Math.max(...idle).toFixed(1)} ms`);
    console.log(`  health p99 while generating             ${(p99 / idleP99).toFixed(2)}x idle`);
    // What competes with the main thread: its own share of the time, and every thread's CPU seconds a reply.
    const mainMs = (cpuUsed.get(server.pid) ?? 0) * 1000;
    console.log(`  server main thread busy ${((mainMs / generatingMs) * 100).toFixed(1)} % of the time while generating (health probe included)`);
    console.log(`  server CPU seconds a reply by thread: ${describeThreadCpu(server.pid, cpuUsed, 1 / HEALTH_RUNS)}`);
  } finally {
    await server.close();
  }
}
