// The server's side of the local chat model: one worker thread per server process (llm-worker.ts), a line of
// replies (local_llm_concurrency at once, the others told their place), and the idle unload that gives the memory
// back. The desktop app runs one server per machine, so this is one model runtime per laptop.
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../workers/thread.js';
import { LocalSlot } from '../../audio/local-slot.js';
import type { ChatMessage } from '../llm.js';
import type { FromWorker, ModelLoad, ToWorker } from './llm-protocol.js';

export interface LocalGeneration {
  load: ModelLoad;
  /** Bytes of memory the model takes once loaded (for the next one's memory check). */
  memoryBytes: number;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  jsonSchema?: object;
  concurrency: number;
  idleUnloadMs: number;
  signal: AbortSignal;
  /** While waiting: the place in line (1 runs next), told again whenever it changes. */
  onQueued?(position: number): void;
  /** Once the reply's turn came, before the model is loaded or asked; throwing here refuses it. */
  onStart?(): void;
  onToken(text: string): void;
}

export interface GenerationResult {
  promptTokens: number;
  completionTokens: number;
}

interface Pending {
  onToken(text: string): void;
  resolve(result: GenerationResult): void;
  reject(err: Error): void;
  load: ModelLoad;
  memoryBytes: number;
}

/**
 * A worker thread's stack is 4 MB by default; llama.cpp's tokenizer matches its pre-tokenizer with std::regex, which
 * recurses once per character of a word, and a model that writes one very long "word" (thousands of the same
 * character) overflows that. 64 MB is address space, not memory taken. Sampling leaves a little garbage per token:
 * a larger young generation than a worker's default means fewer scavenges while a reply streams (about 5 % faster
 * on the tiny bench model).
 */
const STACK_MB = 64;
const YOUNG_GENERATION_MB = 64;

const newWorker = (): Worker => startThread(import.meta.url, 'llm-worker', { stackSizeMb: STACK_MB, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB });

export class LocalLlmRuntime {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly slot = new LocalSlot();
  private idleTimer: NodeJS.Timeout | undefined;
  /** What the worker holds in memory (known once a reply on it produced something). */
  private resident: { file: string; bytes: number } | undefined;

  /** The model file in memory now, if any. */
  get loadedFile(): string | undefined {
    return this.resident?.file;
  }

  /** Free memory plus what the resident model takes (it would make way for another). */
  availableMemory(): number {
    return os.freemem() + (this.resident?.bytes ?? 0);
  }

  async generate(g: LocalGeneration): Promise<GenerationResult> {
    clearTimeout(this.idleTimer);
    this.slot.setCapacity(g.concurrency);
    const id = this.nextId++;
    let told: number | undefined;
    const tell = () => {
      const position = this.slot.position(id);
      if (position !== undefined && position !== told) g.onQueued?.((told = position));
    };
    const stopTelling = this.slot.onChange(tell);
    let release: () => void;
    try {
      release = await this.slot.acquire(id, g.signal);
    } finally {
      stopTelling();
    }
    try {
      g.onStart?.();
      return await this.run(id, g);
    } finally {
      release();
      this.scheduleUnload(g.idleUnloadMs);
    }
  }

  private run(id: number, g: LocalGeneration): Promise<GenerationResult> {
    const worker = this.ensureWorker();
    return new Promise<GenerationResult>((resolve, reject) => {
      const onAbort = () => this.send({ type: 'abort', id });
      g.signal.addEventListener('abort', onAbort, { once: true });
      const settle = <T>(fn: (value: T) => void) => (value: T) => {
        g.signal.removeEventListener('abort', onAbort);
        fn(value);
      };
      this.pending.set(id, { onToken: g.onToken, resolve: settle(resolve), reject: settle(reject), load: g.load, memoryBytes: g.memoryBytes });
      worker.postMessage({ type: 'generate', id, load: g.load, messages: g.messages, maxTokens: g.maxTokens, temperature: g.temperature, jsonSchema: g.jsonSchema } satisfies ToWorker);
      if (g.signal.aborted) onAbort();
    });
  }

  private send(message: ToWorker) {
    this.worker?.postMessage(message);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = newWorker();
    // Never what keeps the process alive; the server's close stops it.
    worker.unref();
    worker.on('message', (message: FromWorker) => this.receive(worker, message));
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', (code) => this.lost(worker, new Error(`the local model worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private receive(worker: Worker, message: FromWorker) {
    if (message.type === 'unloaded') {
      if (message.skipped || this.pending.size) return;
      this.resident = undefined;
      this.worker = undefined;
      void worker.terminate();
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.type !== 'error') this.resident = { file: pending.load.file, bytes: pending.memoryBytes };
    if (message.type === 'token') return pending.onToken(message.text);
    this.pending.delete(message.id);
    if (message.type === 'done') pending.resolve({ promptTokens: message.promptTokens, completionTokens: message.completionTokens });
    else pending.reject(message.aborted ? new DOMException('The caller aborted the model call', 'AbortError') : new Error(message.message));
  }

  private lost(worker: Worker, err: Error) {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.resident = undefined;
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.reject(err);
    }
  }

  private scheduleUnload(afterMs: number) {
    clearTimeout(this.idleTimer);
    if (this.slot.busy || this.slot.waitingCount || !this.worker) return;
    this.idleTimer = setTimeout(() => this.send({ type: 'unload' }), afterMs);
    this.idleTimer.unref();
  }

  /** Stops the worker (server shutdown); replies still running fail. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    if (!worker) return;
    this.lost(worker, new Error('the server is stopping'));
    await worker.terminate();
  }
}

/** The runtime of this process. */
export const localLlm = new LocalLlmRuntime();
