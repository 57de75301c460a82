// Runs one sherpa-onnx task in a child process (sherpa-worker.ts), one at a time per server, like whisper.cpp. A
// child that crashes (sherpa-onnx ends its process on some malformed models), is killed on abort or timeout, or
// answers an error becomes a SherpaFailed with a plain reason; the server itself never loads the native library.
import pLimit from 'p-limit';
import { startChild } from '../../workers/child.js';
import type { SherpaReply, SherpaResult, SherpaTask } from './sherpa-protocol.js';

export class SherpaFailed extends Error {
  override name = 'SherpaFailed';
}

/** One sherpa-onnx child at a time: each uses the cores it is given, and several would only slow each other. */
const oneAtATime = pLimit(1);

export interface SherpaRunOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?(fraction: number): void;
}

/** The last lines sherpa-onnx wrote on stderr that say what went wrong (its own log lines name the missing key). */
function why(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.replace(/^.*?\.(cc|h):\d+(:\w+\(\))?\s*/, '').trim())
    .filter((line) => line && !/^(chunk|sum labels|speaker count|segmentations\.size)/.test(line));
  return lines.slice(-3).join(' ').slice(0, 500);
}

type ResultOf<T extends SherpaTask['type']> = Extract<SherpaResult, { type: T }>;

export function runSherpa<T extends SherpaTask>(task: T, options: SherpaRunOptions = {}): Promise<ResultOf<T['type']>> {
  return oneAtATime(() => runChild(task, options)) as Promise<ResultOf<T['type']>>;
}

function runChild(task: SherpaTask, { signal, timeoutMs = 10 * 60_000, onProgress }: SherpaRunOptions): Promise<SherpaResult> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<SherpaResult>((resolve, reject) => {
    const child = startChild(import.meta.url, 'sherpa-worker');
    let stderr = '';
    let result: SherpaResult | undefined;
    let failure: string | undefined;
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(() => {
      failure = `sherpa-onnx was stopped after ${Math.round(timeoutMs / 1000)} s`;
      kill();
    }, timeoutMs);
    signal?.addEventListener('abort', kill, { once: true });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-8000)));
    child.on('message', (reply: SherpaReply) => {
      if (reply.type === 'progress') onProgress?.(reply.fraction);
      else if (reply.type === 'result') result = reply.result;
      else failure = reply.message;
    });
    child.once('error', (err) => {
      failure ??= err.message;
    });
    child.once('exit', (code, killedBy) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
      if (signal?.aborted) return reject(signal.reason);
      if (result) return resolve(result);
      const said = why(stderr);
      const reason = failure ?? (killedBy ? `sherpa-onnx was stopped (${killedBy})` : `sherpa-onnx ended with exit code ${code}`);
      reject(new SherpaFailed(said && !failure?.includes(said) ? `${reason}: ${said}` : reason));
    });
    child.send(task);
  });
}
