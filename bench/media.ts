// Issues 4 and 9: chunked upload of a 1 GiB file over loopback against `dd` writing 1 GiB to the same disk
// in the same run (target >= 70 % of dd's throughput), and the server's peak RSS (target < 200 MB). The server runs
// in a child process so that its memory is its own, compiled as it ships (harness.ts).
//
// On a virtual machine, writing 1 GiB costs very different amounts depending on the host: a page of guest memory
// touched for the first time, or a disk block never written before, can cost several times a recycled one (seen
// here: the same dd from 340 MB/s to 1.6 GB/s). So every measurement runs in the same conditions (a new 1 GiB file,
// kept until the end of its round, written after a sync), dd and the upload patterns alternate over ROUNDS rounds in a
// rotating order, and the ratios compare medians.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { cpuSeconds, describeThreadCpu, startBenchServer, threadCpuSeconds, threadCpuSince, type BenchContext } from './harness.js';
import { chunkedUpload, describePattern, type UploadPattern, type UploadTiming } from './upload-client.js';

const GIB = 1024 ** 3;
const ROUNDS = 5;
/**
 * The contract's plain client (multipart, one chunk after another: what an outside check sends), the same with two
 * chunks in flight (the renderer's uploader), and the raw-body variant.
 */
const PATTERNS: UploadPattern[] = [
  { encoding: 'multipart', inFlight: 1 },
  { encoding: 'multipart', inFlight: 2 },
  { encoding: 'raw', inFlight: 2 },
];

/** Every measurement starts with no writeback pending from the one before (each writes 1 GiB). */
const settleDisk = () => promisify(execFile)('sync');

/** `dd` writing 1 GiB of zeros with a final fsync into a new file (kept, like an upload's), in seconds. */
async function ddSeconds(dir: string, name: string): Promise<number> {
  await settleDisk();
  const started = process.hrtime.bigint();
  await promisify(execFile)('dd', ['if=/dev/zero', `of=${path.join(dir, name)}`, 'bs=1M', 'count=1024', 'conv=fsync']);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const mbps = (bytes: number, seconds: number) => bytes / 1e6 / seconds;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Sample extends UploadTiming {
  serverCpu: number;
  /** Seconds per GiB by thread (each upload is 1 GiB). */
  byThread: string;
}

export default async function media(_ctx: BenchContext): Promise<void> {
  const server = await startBenchServer();
  const scratch = await fs.mkdtemp(path.join(server.dataDir, 'dd-'));
  try {
    const rssAtStart = server.peakRssMb();
    const dd: number[] = [];
    const uploads: Sample[][] = PATTERNS.map(() => []);
    const measurements: (() => Promise<void>)[] = [
      async () => void dd.push(await ddSeconds(scratch, `dd-${dd.length}.bin`)),
      ...PATTERNS.map((pattern, i) => async () => {
        await settleDisk();
        const cpuBefore = cpuSeconds(server.pid);
        const threadsBefore = threadCpuSeconds(server.pid);
        const timing = await chunkedUpload(server.url, server.adminToken, GIB, pattern);
        const byThread = describeThreadCpu(server.pid, threadCpuSince(server.pid, threadsBefore), 1);
        uploads[i]!.push({ ...timing, serverCpu: cpuSeconds(server.pid) - cpuBefore, byThread });
      }),
    ];
    // Each round starts one further along (dd, then the patterns; then the patterns, then dd; ...): later writes in
    // a round tend to be slower here, and no measurement should always go first.
    const mediaFiles = path.join(server.dataDir, 'media', 'files');
    for (let round = 0; round < ROUNDS; round++) {
      for (let step = 0; step < measurements.length; step++) await measurements[(round + step) % measurements.length]!();
      // At most one round's files on disk at a time.
      await fs.rm(path.join(scratch, `dd-${round}.bin`));
      for (const name of await fs.readdir(mediaFiles)) await fs.rm(path.join(mediaFiles, name));
    }
    const rssPeak = server.peakRssMb();
    const ddMedian = median(dd);
    const list = (values: number[]) => values.map((seconds) => mbps(GIB, seconds).toFixed(0)).join(', ');
    console.log(`dd 1 GiB conv=fsync (same disk), median of ${ROUNDS}  ${mbps(GIB, ddMedian).toFixed(0).padStart(6)} MB/s  (rounds: ${list(dd)} MB/s)`);
    PATTERNS.forEach((pattern, i) => {
      const samples = uploads[i]!;
      const seconds = median(samples.map((sample) => sample.seconds));
      const ratio = (ddMedian / seconds) * 100;
      console.log(
        `chunked upload 1 GiB, ${describePattern(pattern).padEnd(28)} ${mbps(GIB, seconds).toFixed(0).padStart(6)} MB/s  ` +
          `= ${ratio.toFixed(1)} % of dd  [target >= 70 %]  ${ratio >= 70 ? 'ok' : 'MISSED'}`,
      );
      const medianCpu = median(samples.map((sample) => sample.serverCpu));
      const perRound = samples.map((sample, round) => `${((dd[round]! / sample.seconds) * 100).toFixed(0)} %`).join(', ');
      console.log(
        `  rounds: ${list(samples.map((sample) => sample.seconds))} MB/s (${perRound} of that round's dd); ` +
          `complete ${median(samples.map((sample) => sample.completeSeconds)).toFixed(2)} s; server CPU ${medianCpu.toFixed(2)} s per GiB`,
      );
      console.log(`  that round's CPU by thread, s per GiB: ${samples.find((sample) => sample.serverCpu === medianCpu)!.byThread}`);
    });
    console.log(
      `server peak RSS (VmHWM)                     ${rssPeak.toFixed(0).padStart(6)} MB    (${rssAtStart.toFixed(0)} MB after start)  ` +
        `[target < 200 MB]  ${rssPeak < 200 ? 'ok' : 'MISSED'}`,
    );
  } finally {
    await server.close();
  }
}
