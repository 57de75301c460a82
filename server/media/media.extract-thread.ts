// Text extraction runs in a thread of its own with a bounded heap: a document built to expand when read (a 1 MB docx
// holding 230 MB of XML) stops that thread, not the server, and its extraction fails with a reason. In the server's
// own thread it ran the process out of memory, and again at every start, as the queue picked the document up again.
import { startThread } from '../workers/thread.js';
import type { OnProgress } from './media.extract.js';

/** Far above what a real document's text needs (a 500-page PDF stays under 100 MB). */
const EXTRACTION_HEAP_MB = 384;

type Message = { progress: number } | { text: string } | { error: string };

export function extractTextInThread(filePath: string, ext: string, onProgress: OnProgress): Promise<string> {
  const thread = startThread(import.meta.url, 'media.extract-worker', { maxOldGenerationSizeMb: EXTRACTION_HEAP_MB });
  return new Promise<string>((resolve, reject) => {
    let reported: Promise<unknown> = Promise.resolve();
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      void thread.terminate();
      void reported.then(outcome, outcome);
    };
    thread.on('message', (message: Message) => {
      if ('progress' in message) reported = reported.then(() => onProgress(message.progress)).catch(() => undefined);
      else if ('text' in message) settle(() => resolve(message.text));
      else settle(() => reject(new Error(message.error)));
    });
    thread.on('error', (err: NodeJS.ErrnoException) => {
      const outOfMemory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      settle(() => reject(outOfMemory ? new Error(`Reading it needs more than ${EXTRACTION_HEAP_MB} MB of memory (a document that expands far beyond its size)`) : err));
    });
    thread.on('exit', (code) => settle(() => reject(new Error(`The text extraction stopped unexpectedly (exit code ${code})`))));
    thread.postMessage({ filePath, ext });
  });
}
