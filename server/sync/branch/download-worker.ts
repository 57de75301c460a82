// The branch's file downloads, on a thread of their own (downloader.ts): hashing and writing hundreds of MB on the
// server's event loop slowed the requests of the people using the laptop, and the main heap's garbage collector ran
// dozens of full collections per second under that stream of socket buffers (docs/sync.md, "Files").
import crypto from 'node:crypto';
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { once } from 'node:events';
import { PRIVATE_FILE_MODE } from '../../data-dir.js';
import { CentralError, failed, request } from './central-client.js';
import type { DownloadJob, FromDownloader } from './downloader.js';

const port = parentPort!;
const post = (message: FromDownloader) => port.postMessage(message);
/** Progress goes to the status page at most this often. */
const PROGRESS_EVERY_MS = 200;

/** The hash of the bytes already on disk, to be continued with the rest. */
async function hashOf(file: string, bytes: number): Promise<crypto.Hash> {
  const hash = crypto.createHash('sha256');
  if (bytes > 0) for await (const chunk of fs.createReadStream(file, { end: bytes - 1, highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash;
}

async function download(job: DownloadJob): Promise<FromDownloader> {
  let have = job.have;
  const hash = await hashOf(job.part, have);
  if (have >= job.size) return { id: job.id, type: 'done', received: have, sha256: hash.digest('hex') };
  const res = await request(job.central, 'GET', `/api/sync/files/${job.gid}`, { headers: { range: `bytes=${have}-` } });
  if (res.statusCode === 404) {
    res.resume();
    return { id: job.id, type: 'gone' };
  }
  if (res.statusCode !== 206 && res.statusCode !== 200) throw await failed(res);
  if (res.statusCode === 200) have = 0; // the server sent the whole file: start over
  const restarted = res.statusCode === 200 ? crypto.createHash('sha256') : hash;
  let told = 0;
  const out = fs.createWriteStream(job.part, { flags: res.statusCode === 206 ? 'a' : 'w', mode: PRIVATE_FILE_MODE, highWaterMark: 1024 * 1024 });
  // A write that fails (disk full…) stops the download and is what gets reported.
  let writeError: Error | undefined;
  out.on('error', (err) => {
    writeError ??= err;
    res.destroy();
  });
  let cutOff: unknown;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      restarted.update(chunk);
      have += chunk.length;
      if (Date.now() - told >= PROGRESS_EVERY_MS) {
        told = Date.now();
        post({ id: job.id, type: 'progress', received: have });
      }
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } catch (err) {
    cutOff = err;
  }
  // Ended, not destroyed, also when the connection was cut: the bytes that arrived are on disk for the resume to
  // start after (a destroyed stream would drop what it still buffered, up to its high-water mark).
  await new Promise<void>((resolve) => out.end(() => resolve()));
  if (writeError) throw writeError;
  if (cutOff) throw new CentralError(`The download of a file was cut off: ${(cutOff as Error).message}`, true);
  return { id: job.id, type: 'done', received: have, sha256: restarted.digest('hex') };
}

port.on('message', (job: DownloadJob) => {
  download(job).then(post, (err: unknown) => {
    const e = err instanceof CentralError ? err : new CentralError((err as Error).message, false);
    post({ id: job.id, type: 'failed', message: e.message, unreachable: e.unreachable, status: e.status, code: e.code });
  });
});
