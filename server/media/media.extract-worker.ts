// The thread that extracts one document's text (media.extract-thread.ts): progress as it goes, then the text or the
// reason it could not be read.
import { parentPort } from 'node:worker_threads';
import { extractText } from './media.extract.js';

const port = parentPort!;

port.once('message', async ({ filePath, ext }: { filePath: string; ext: string }) => {
  try {
    const text = await extractText(filePath, ext, async (fraction) => port.postMessage({ progress: fraction }));
    port.postMessage({ text });
  } catch (err) {
    port.postMessage({ error: (err as Error)?.message ?? String(err) });
  }
});
