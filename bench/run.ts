// npm run bench: every scenario, each reported as ratios to baselines measured in this same run.
import { load, startBareKoa, type BenchContext, type LoadResult } from './harness.js';
import foundation from './foundation.js';
import chat from './chat.js';
import media from './media.js';
import exams from './exams.js';
import knowledge from './knowledge.js';
import audio from './audio.js';
import renderer from './renderer.js';
import desktop from './desktop.js';
import packageSize from './package.js';
import startup from './startup.js';
import coaching from './coaching.js';
import memory from './memory.js';
import sync from './sync.js';
import llm from './llm.js';
import storage from './storage.js';
import assignments from './assignments.js';
import diarization from './diarization.js';
import compliance from './compliance.js';
import review from './review.js';
import cluster from './cluster.js';
import examDay from './exam-day.js';
import submits from './submits.js';
import stalls from './stalls.js';
import roleplay from './roleplay.js';

type Scenario = (ctx: BenchContext) => Promise<void>;

const scenarios: [string, Scenario][] = [
  ['foundation', foundation],
  ['exams', exams],
  ['chat', chat],
  ['media', media],
  ['knowledge', knowledge],
  ['audio', audio],
  ['renderer', renderer],
  ['desktop', desktop],
  ['package', packageSize],
  ['startup', startup],
  ['coaching', coaching],
  ['memory', memory],
  ['sync', sync],
  ['llm', llm],
  ['storage', storage],
  ['assignments', assignments],
  ['diarization', diarization],
  ['compliance', compliance],
  ['review', review],
  ['cluster', cluster],
  ['exam-day', examDay],
  ['submits', submits],
  ['stalls', stalls],
  ['roleplay', roleplay],
];

const only = process.argv.slice(2);
const bare = await startBareKoa();
const cache = new Map<number, LoadResult>();
const baselineAt = async (connections: number) => {
  if (!cache.has(connections)) cache.set(connections, await load({ url: bare.url, path: '/', connections, duration: 5 }));
  return cache.get(connections)!;
};
const baseline = await baselineAt(32);
console.log(`baseline: bare Koa constant JSON at 32 connections: ${baseline.rps.toFixed(0)} req/s, p99 ${baseline.p99} ms\n`);

for (const [name, scenario] of scenarios) {
  if (only.length && !only.includes(name)) continue;
  console.log(`--- ${name}`);
  await scenario({ baseline, bareKoa: bare, baselineAt });
  console.log();
}
await bare.close();
