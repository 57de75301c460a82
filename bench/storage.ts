// Issue 24: a 512 MB chunked upload through the server into the bucket (STORAGE=s3, s3rver on loopback in its own
// process) against the same bytes put with the AWS SDK's own multipart upload (lib-storage's Upload) from this
// process, in the same run (target >= 0.8x), and the server's peak RSS during the upload (target < 200 MB). The
// two alternate over ROUNDS rounds and the ratio compares medians.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { cpuSeconds, resetPeakRss, startBenchServer, type BenchContext } from './harness.js';
import { CHUNK, chunkedUpload, describePattern, type UploadPattern } from './upload-client.js';
import { S3Storage } from '../server/storage/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 512 * 1024 * 1024;
const ROUNDS = 3;
const PATTERNS: UploadPattern[] = [
  { encoding: 'multipart', inFlight: 1 },
  { encoding: 'multipart', inFlight: 2 },
];

interface S3Process {
  endpoint: string;
  bucket: string;
  env: Record<string, string>;
  pid: number;
  close(): Promise<void>;
}

async function startS3Process(): Promise<S3Process> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/s3-process.ts'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<{ endpoint: string; bucket: string; env: Record<string, string> }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^s3 (.+)$/m.exec(out);
      if (match) resolve(JSON.parse(match[1]!));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  return {
    ...info,
    pid: child.pid!,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The bytes the upload client sends: the same 5 MiB block with its chunk number in the first four bytes. */
function sameBytes(size: number): Readable {
  const block = Buffer.from(Buffer.alloc(CHUNK, 7));
  return Readable.from(
    (function* () {
      for (let index = 0; index * CHUNK < size; index++) {
        const data = Buffer.from(block.subarray(0, Math.min(CHUNK, size - index * CHUNK)));
        data.writeUInt32BE(index, 0);
        yield data;
      }
    })(),
  );
}

async function sdkUpload(s3: S3Process, key: string): Promise<number> {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID!, secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY! },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const started = process.hrtime.bigint();
  await new Upload({ client, params: { Bucket: s3.bucket, Key: key, Body: sameBytes(SIZE) }, partSize: CHUNK }).done();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  client.destroy();
  return seconds;
}

const mbps = (seconds: number) => SIZE / 1e6 / seconds;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export default async function storage(_ctx: BenchContext): Promise<void> {
  const s3 = await startS3Process();
  const server = await startBenchServer({ env: s3.env });
  const bucket = new S3Storage({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true });
  process.env.AWS_ACCESS_KEY_ID ??= s3.env.AWS_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY ??= s3.env.AWS_SECRET_ACCESS_KEY;
  try {
    const sdk: number[] = [];
    const uploads: { seconds: number; complete: number; peakRss: number; cpu: number }[][] = PATTERNS.map(() => []);
    const emptyBucket = () => bucket.deletePrefix('');
    const steps: (() => Promise<void>)[] = [
      async () => void sdk.push(await sdkUpload(s3, `sdk/round-${sdk.length}`)),
      ...PATTERNS.map((pattern, i) => async () => {
        resetPeakRss(server.pid);
        const cpu = cpuSeconds(server.pid);
        const timing = await chunkedUpload(server.url, server.adminToken, SIZE, pattern);
        uploads[i]!.push({ seconds: timing.seconds, complete: timing.completeSeconds, peakRss: server.peakRssMb(), cpu: cpuSeconds(server.pid) - cpu });
      }),
    ];
    for (let round = 0; round < ROUNDS; round++) {
      for (let step = 0; step < steps.length; step++) {
        await steps[(round + step) % steps.length]!();
        await emptyBucket();
      }
    }
    const sdkMedian = median(sdk);
    console.log(`AWS SDK Upload (lib-storage, 5 MiB parts, 4 in flight), 512 MB, median of ${ROUNDS}  ${mbps(sdkMedian).toFixed(0).padStart(5)} MB/s  (rounds: ${sdk.map((s) => mbps(s).toFixed(0)).join(', ')})`);
    for (const [i, pattern] of PATTERNS.entries()) {
      const samples = uploads[i]!;
      const seconds = median(samples.map((s) => s.seconds));
      const peak = Math.max(...samples.map((s) => s.peakRss));
      console.log(
        `chunked upload through the server (${describePattern(pattern)})  ${mbps(seconds).toFixed(0).padStart(5)} MB/s = ${(sdkMedian / seconds).toFixed(2)}x the SDK [target >= 0.8x]` +
          `  complete ${median(samples.map((s) => s.complete)).toFixed(2)} s, server CPU ${median(samples.map((s) => s.cpu)).toFixed(2)} s, peak RSS ${peak.toFixed(0)} MB [target < 200 MB]` +
          `  (rounds: ${samples.map((s) => mbps(s.seconds).toFixed(0)).join(', ')} MB/s)`,
      );
    }
  } finally {
    await bucket.close();
    await server.close();
    await s3.close();
  }
}
