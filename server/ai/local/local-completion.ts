// One reply of a local-llama route: the counterpart of openai-stream.ts's streamCompletion for a GGUF model run on
// this computer. Same contract: pieces go to onToken as they are sampled, progress is filled as it goes, a failure
// before the first piece is an UpstreamError (the next route is tried), the caller's abort is rethrown. The connect
// timeout runs from the reply's turn (waiting in line does not count: the caller is told its place) to the first
// piece, the idle timeout between pieces.
import { availableParallelism } from 'node:os';
import type { Db } from '../../db/knex.js';
import { readConfigValue } from '../../system/config.service.js';
import { modelFile, type ModelDirs } from '../../audio/models.js';
import type { ChatMessage } from '../llm.js';
import { UpstreamError, type CompletionProgress } from '../openai-stream.js';
import { findChatModel, modelHeader } from './chat-models.js';
import { localLlm } from './llm-runtime.js';

export interface LocalRouteTarget {
  name: string;
  model: string;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
}

export interface LocalRequest {
  messages: ChatMessage[];
  jsonSchema?: object;
  onQueued?(position: number): void;
}

/** The model folders of each database's server (set when the AI routes are mounted). */
const folders = new WeakMap<Db, ModelDirs>();
export const useModelDirs = (db: Db, dirs: ModelDirs) => void folders.set(db, dirs);
export function modelDirsOf(db: Db): ModelDirs {
  const dirs = folders.get(db);
  if (!dirs) throw new Error('the model folders of this server are not known (aiRoutes was not mounted)');
  return dirs;
}

/** The local_llm_* parameters, from the cached system configuration. */
export async function localSettings(db: Db) {
  const [concurrency, idleSeconds, maxTokens, contextSize] = await Promise.all(
    ['local_llm_concurrency', 'local_llm_idle_unload_seconds', 'local_llm_max_tokens', 'local_llm_context_size'].map((key) => readConfigValue<number>(db, key)),
  );
  return { concurrency: concurrency!, idleUnloadMs: idleSeconds! * 1000, maxTokens: maxTokens!, contextSize: contextSize! };
}

const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(bytes < 1024 ** 3 ? 2 : 1)} GB`;

/**
 * What a route's model needs, or why it cannot run here (missing file, unreadable header, not enough memory). A
 * stored model this node has not fetched is fetched into its cache first, unless `fetch` is false (a listing):
 * then the plan says only that it is there.
 */
export async function localModelPlan(db: Db, dirs: ModelDirs, model: string, { fetch = true } = {}) {
  const settings = await localSettings(db);
  const stored = await findChatModel(dirs, model);
  if (!stored) return { settings, problem: `the model file ${model} is not in DATA_DIR/models or resources/models (nor installed through the API)`, present: false } as const;
  if (stored.path === null && !fetch) return { settings, problem: undefined, present: true } as const;
  const found = await modelFile(dirs, stored);
  let header;
  try {
    header = await modelHeader(found);
  } catch (err) {
    return { settings, problem: `${model} is not a GGUF chat model whose header reads: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, present: true } as const;
  }
  const contextSize = Math.min(settings.contextSize, header.trainContextSize ?? settings.contextSize);
  const memoryBytes = header.weightBytes + header.contextBytes(contextSize, settings.concurrency);
  const load = { file: found.path, contextSize, sequences: settings.concurrency, threads: Math.max(1, availableParallelism() - 1) };
  return { settings, found, header, load, memoryBytes, present: true, problem: memoryProblem(model, memoryBytes) } as const;
}

/** undefined when the memory is there. */
function memoryProblem(model: string, need: number): string | undefined {
  const available = localLlm.availableMemory();
  if (need <= available) return undefined;
  return `not enough free memory for ${model}: it needs about ${gb(need)}, ${gb(available)} is free`;
}

/** Streams the reply, calling onToken for each non-empty piece; resolves with the whole text. */
export async function streamLocalCompletion(
  db: Db,
  target: LocalRouteTarget,
  request: LocalRequest,
  onToken: (text: string) => void,
  progress: CompletionProgress,
  signal?: AbortSignal,
): Promise<string> {
  const plan = await localModelPlan(db, modelDirsOf(db), target.model);
  if (!('load' in plan) || !plan.load) throw new UpstreamError(plan.problem);
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number, message: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new UpstreamError(message)), ms);
  };
  try {
    if (signal?.aborted) throw signal.reason;
    const result = await localLlm.generate({
      load: plan.load,
      memoryBytes: plan.memoryBytes,
      messages: request.messages,
      maxTokens: plan.settings.maxTokens,
      // Structured replies take the likeliest token the grammar allows; prose a little variety.
      temperature: request.jsonSchema ? 0 : 0.7,
      jsonSchema: request.jsonSchema,
      concurrency: plan.settings.concurrency,
      idleUnloadMs: plan.settings.idleUnloadMs,
      signal: controller.signal,
      onQueued: request.onQueued,
      onStart() {
        // Memory is checked again when the turn comes: another model may have been loaded meanwhile.
        const problem = memoryProblem(target.model, plan.memoryBytes);
        if (problem) throw new UpstreamError(problem);
        arm(target.connectTimeoutMs, `no reply within ${target.connectTimeoutMs} ms`);
      },
      onToken(piece) {
        if (!piece) return;
        // The idle timeout starts with the first piece; later ones only restart it (no new timer per piece).
        if (progress.firstTokenAt === null) arm(target.idleTimeoutMs, `no reply piece for ${target.idleTimeoutMs} ms`);
        else timer?.refresh();
        progress.firstTokenAt ??= Date.now();
        progress.text += piece;
        onToken(piece);
      },
    });
    progress.promptTokens = result.promptTokens;
    progress.completionTokens = result.completionTokens;
    return progress.text;
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (controller.signal.aborted) throw controller.signal.reason;
    throw err instanceof UpstreamError ? err : new UpstreamError(`the local model failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
}
