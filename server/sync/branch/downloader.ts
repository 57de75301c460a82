// The main side of the download thread (download-worker.ts): one thread per sync run that has files to fetch,
// stopped when the run ends. Each job resumes a part file at the bytes on disk and answers with what it received and
// the sha256 of the whole file; the caller verifies and moves it.
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../workers/thread.js';
import { CentralError, type Central } from './central-client.js';

export interface DownloadJob {
  id: number;
  central: Central;
  gid: string;
  part: string;
  size: number;
  /** Bytes already in the part file. */
  have: number;
}

export type FromDownloader =
  | { id: number; type: 'progress'; received: number }
  | { id: number; type: 'done'; received: number; sha256: string }
  | { id: number; type: 'gone' }
  | { id: number; type: 'failed'; message: string; unreachable: boolean; status?: number; code?: string };

export type Downloaded = { received: number; sha256: string } | 'gone';

export class Downloader {
  private readonly worker: Worker = startThread(import.meta.url, 'download-worker');
  private readonly waiting = new Map<number, { resolve(d: Downloaded): void; reject(e: Error): void; onProgress(received: number): void }>();
  private nextId = 1;

  constructor() {
    this.worker.unref();
    this.worker.on('message', (m: FromDownloader) => this.receive(m));
    this.worker.on('error', (err) => this.lose(new CentralError(`The download thread failed: ${err.message}`, false)));
    this.worker.on('exit', (code) => this.lose(new CentralError(`The download thread stopped (exit code ${code})`, false)));
  }

  fetch(job: Omit<DownloadJob, 'id'>, onProgress: (received: number) => void): Promise<Downloaded> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ ...job, id } satisfies DownloadJob);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private receive(m: FromDownloader): void {
    const job = this.waiting.get(m.id);
    if (!job) return;
    if (m.type === 'progress') return job.onProgress(m.received);
    this.waiting.delete(m.id);
    if (m.type === 'done') job.resolve({ received: m.received, sha256: m.sha256 });
    else if (m.type === 'gone') job.resolve('gone');
    else job.reject(new CentralError(m.message, m.unreachable, m.status, m.code));
  }

  private lose(err: Error): void {
    for (const job of this.waiting.values()) job.reject(err);
    this.waiting.clear();
  }
}
