// The desktop app's main process as far as its event loop is concerned, for `npm run bench -- desktop`: it hosts
// the server either in-process (startServer here, as main/index.ts did before issue 10) or in its own process
// under the supervisor main/index.ts uses (a Node child process standing in for Electron's utilityProcess), and
// measures its own event-loop delay with perf_hooks.monitorEventLoopDelay at Node's default resolution (10 ms; a
// finer one adds idle samples that dilute the stalls in the percentiles, so it is reported alongside, at 1 ms),
// counts stalls over 50 ms, and reports the share of time the loop was busy (event-loop utilization). Driven over stdin by bench/desktop.ts: `reset`, `report` (one JSON line), `stop`.
import path from 'node:path';
import readline from 'node:readline';
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from '../server/config.js';
import { startServer } from '../server/start.js';
import { silentLogger } from '../server/log/logger.js';
import { ServerSupervisor } from '../main/server-supervisor.js';
import { forkNodeServer } from '../main/node-server-process.js';

const mode = process.argv[2];
if (mode !== 'in-process' && mode !== 'own-process') throw new Error('usage: desktop-main.ts in-process|own-process');

let utilization = performance.eventLoopUtilization();
const delay = monitorEventLoopDelay();
const fine = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
fine.enable();

/** Stalls a user would notice: the loop late by more than 50 ms (checked every 10 ms). */
const STALL_MS = 50;
let stalls = { count: 0, ms: 0 };
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  const late = now - last - 10;
  last = now;
  if (late > STALL_MS) stalls = { count: stalls.count + 1, ms: stalls.ms + late };
}, 10);

const config = configFromEnv(process.env);
let url: string;
let stop: () => Promise<void>;
if (mode === 'in-process') {
  const server = await startServer(config);
  url = server.url;
  stop = () => server.close();
} else {
  const host = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main/server-host.ts');
  const supervisor = new ServerSupervisor({ fork: () => forkNodeServer(host, { execArgv: ['--import', 'tsx'] }), config, log: silentLogger });
  url = (await supervisor.start()).url;
  stop = () => supervisor.stop();
}
console.log(`ready ${url}`);

const ms = (ns: number) => Math.round(ns / 1e4) / 100;
/** The histogram holds whole intervals (resolution + lateness): the delay is what exceeds the resolution. */
const figures = (h: IntervalHistogram, resolution: number) => {
  const late = (ns: number) => Math.max(0, ms(ns) - resolution);
  return { p50: late(h.percentile(50)), p99: late(h.percentile(99)), max: late(h.max), samples: h.count };
};
for await (const line of readline.createInterface({ input: process.stdin })) {
  if (line === 'reset') {
    delay.reset();
    fine.reset();
    stalls = { count: 0, ms: 0 };
    utilization = performance.eventLoopUtilization();
    console.log('ok');
  } else if (line === 'report') {
    console.log(JSON.stringify({ ...figures(delay, 10), fine: figures(fine, 1), stalls: stalls.count, stalledMs: Math.round(stalls.ms), busy: Math.round(performance.eventLoopUtilization(utilization).utilization * 1000) / 10 }));
  } else if (line === 'stop') {
    await stop();
    process.exit(0);
  }
}
