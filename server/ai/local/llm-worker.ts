// The local chat model's worker thread: loads a GGUF model with node-llama-cpp (prebuilt llama.cpp), keeps it
// loaded between replies, and streams each reply back as it is sampled. Nothing of it runs on the server's event
// loop. One model at a time; a request for another file (or another context shape) waits until the running replies
// end, then swaps. The server decides how many run at once and when to unload (llm-runtime.ts).
import { parentPort } from 'node:worker_threads';
import type { ChatHistoryItem, Llama, LlamaChat, LlamaContext, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import type { ChatMessage } from '../llm.js';
import type { FromWorker, GenerateRequest, ModelLoad, ToWorker } from './llm-protocol.js';

const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

interface Loaded {
  key: string;
  model: LlamaModel;
  context: LlamaContext;
  /** A chat per sequence, kept: its wrapper is resolved from the model's template once, and what a sequence has
   * evaluated already (the system prompt, an earlier turn) is reused by the next reply on it. */
  free: LlamaChat[];
  grammars: Map<string, Promise<LlamaGrammar>>;
}

let llama: Promise<Llama> | undefined;
let loaded: Promise<Loaded> | undefined;
let loadedKey: string | undefined;
const running = new Map<number, AbortController>();
/** Replies generating on the loaded model (past ensureLoaded): a swap waits for them, and only for them. */
let active = 0;
let idleWaiters: (() => void)[] = [];
/** Loads and unloads one after the other. */
let lock: Promise<unknown> = Promise.resolve();
function exclusive<T>(task: () => Promise<T>): Promise<T> {
  const result = lock.then(task);
  lock = result.catch(() => undefined);
  return result;
}

const getLlamaOnce = () =>
  (llama ??= import('node-llama-cpp').then(({ getLlama, LlamaLogLevel }) =>
    // The prebuilt binary of this platform, CPU only: nothing is downloaded or compiled here.
    getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, progressLogs: false }),
  ));

const keyOf = (load: ModelLoad) => `${load.file}|${load.contextSize}|${load.sequences}|${load.threads}`;

async function dispose(): Promise<void> {
  const current = loaded;
  loaded = undefined;
  loadedKey = undefined;
  if (!current) return;
  const model = await current.then((l) => l, () => undefined);
  if (!model) return;
  await model.context.dispose();
  await model.model.dispose();
}

const whenIdle = () => (active === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve)));

function leave() {
  active--;
  if (active > 0) return;
  const waiters = idleWaiters;
  idleWaiters = [];
  for (const resolve of waiters) resolve();
}

/**
 * The model of `load`, loaded once; another one in memory is disposed first, once the replies generating on it end.
 * The caller counts as generating on the model from here on (it must leave()), so no swap can come in between.
 */
const ensureLoaded = (load: ModelLoad): Promise<Loaded> =>
  exclusive(async () => {
    const key = keyOf(load);
    if (loadedKey !== key) await swapTo(load, key);
    const current = await loaded!;
    active++;
    return current;
  });

async function swapTo(load: ModelLoad, key: string): Promise<void> {
  if (loaded) {
    await whenIdle();
    await dispose();
  }
  loadedKey = key;
  loaded = (async () => {
    const model = await (await getLlamaOnce()).loadModel({ modelPath: load.file, gpuLayers: 0 });
    const context = await model.createContext({ contextSize: load.contextSize, sequences: load.sequences, threads: load.threads });
    return { key, model, context, free: [], grammars: new Map() };
  })();
  loaded.catch(() => {
    if (loadedKey === key) {
      loaded = undefined;
      loadedKey = undefined;
    }
  });
}

function history(messages: ChatMessage[]): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = messages.map((m) =>
    m.role === 'assistant' ? { type: 'model', response: [m.content] } : m.role === 'system' ? { type: 'system', text: m.content } : { type: 'user', text: m.content },
  );
  // The reply continues the last model turn: an empty one after a user message.
  if (items.at(-1)?.type !== 'model') items.push({ type: 'model', response: [] });
  return items;
}

function grammarFor(current: Loaded, schema: object): Promise<LlamaGrammar> {
  const key = JSON.stringify(schema);
  let grammar = current.grammars.get(key);
  if (!grammar) {
    grammar = getLlamaOnce().then((l) => l.createGrammarForJsonSchema(schema as never) as Promise<LlamaGrammar>);
    current.grammars.set(key, grammar);
  }
  return grammar;
}

/** How long later pieces wait to go out together: a small model samples thousands of tokens a second, and one message
 * (and one event on the wire, one SSE write, one timer re-armed) per token would cost the server's event loop more
 * than the sampling and keep it from other requests. ~30 messages a second still reads as a live stream. The first
 * piece goes at once. */
const FLUSH_MS = 30;

function pieceSender(id: number) {
  let buffered = '';
  let timer: NodeJS.Timeout | undefined;
  let sentFirst = false;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (buffered) post({ type: 'token', id, text: buffered });
    buffered = '';
  };
  return {
    add(text: string) {
      if (!text) return;
      buffered += text;
      if (!sentFirst) {
        sentFirst = true;
        flush();
      } else timer ??= setTimeout(flush, FLUSH_MS);
    },
    flush,
  };
}

async function generate(request: GenerateRequest, abort: AbortController): Promise<void> {
  const current = await ensureLoaded(request.load);
  try {
    abort.signal.throwIfAborted();
    await reply(request, abort, current);
  } finally {
    leave();
  }
}

async function reply(request: GenerateRequest, abort: AbortController, current: Loaded): Promise<void> {
  const { LlamaChat } = await import('node-llama-cpp');
  const chat = current.free.pop() ?? new LlamaChat({ contextSequence: current.context.getSequence() });
  const sequence = chat.sequence;
  const before = sequence.tokenMeter.getState();
  const pieces = pieceSender(request.id);
  try {
    const grammar = request.jsonSchema ? await grammarFor(current, request.jsonSchema) : undefined;
    await chat.generateResponse(history(request.messages), {
      signal: abort.signal,
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      grammar,
      onTextChunk: (text) => pieces.add(text),
    });
    pieces.flush();
    // What the sequence holds now is the prompt (part of it may have been evaluated for an earlier reply) and the reply.
    const completionTokens = sequence.tokenMeter.getState().usedOutputTokens - before.usedOutputTokens;
    post({ type: 'done', id: request.id, promptTokens: Math.max(0, sequence.contextTokens.length - completionTokens), completionTokens });
  } finally {
    pieces.flush();
    current.free.push(chat);
  }
}

function start(request: GenerateRequest) {
  const abort = new AbortController();
  running.set(request.id, abort);
  generate(request, abort)
    .catch((err: unknown) => post({ type: 'error', id: request.id, message: err instanceof Error ? err.message : String(err), aborted: abort.signal.aborted }))
    .finally(() => running.delete(request.id));
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'generate') start(message);
  else if (message.type === 'abort') running.get(message.id)?.abort(new DOMException('The caller aborted the model call', 'AbortError'));
  // Only when nothing runs: a reply that came in since the server asked keeps the model.
  else if (message.type === 'unload') void exclusive(async () => (running.size ? post({ type: 'unloaded', skipped: true }) : dispose().then(() => post({ type: 'unloaded', skipped: false }))));
});
