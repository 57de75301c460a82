// Local chat models: GGUF files in the model folders (resources/models shipped, DATA_DIR/models installed), next to
// the speech models and installed the same way (a shelf of server/audio/model-install.ts). What a listing shows comes
// from the file's own header (architecture, context length, quantization), read by node-llama-cpp without loading
// the weights, and so does the memory estimate that decides whether a model may be loaded.
import fs from 'node:fs/promises';
import type { Db } from '../../db/knex.js';
import type { ChatModelFile } from '../../../contract/ai.js';
import { cachedSha256, findModels, type FoundModel, type LocalModel, type ModelDirs } from '../../audio/models.js';
import type { ModelShelf } from '../../audio/model-install.js';
import { readFileHead } from '../../file-head.js';

/** A plain GGUF file name: no folder part, ends in .gguf. */
export const CHAT_MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.gguf$/;

/** "GGUF" as the first four bytes. */
const GGUF_MAGIC = Buffer.from('GGUF');

export interface ModelHeader {
  architecture: string;
  modelName: string | null;
  trainContextSize: number | null;
  quantization: string | null;
  parameters: number;
  /** Bytes of memory the weights take on the CPU. */
  weightBytes: number;
  /** Bytes for a context of `contextSize` tokens per sequence and `sequences` sequences. */
  contextBytes(contextSize: number, sequences: number): number;
}

async function readHeader(file: string): Promise<ModelHeader> {
  const { readGgufFileInfo, GgufInsights, GgufFileType } = await import('node-llama-cpp');
  const info = await readGgufFileInfo(file, { logWarnings: false, sourceType: 'filesystem' });
  const insights = await GgufInsights.from(info);
  const general = info.metadata.general;
  const fileType = general.file_type;
  return {
    architecture: String(general.architecture),
    modelName: general.name ?? null,
    trainContextSize: insights.trainContextSize ?? null,
    quantization: fileType === undefined ? null : String(GgufFileType[fileType] ?? fileType).replace(/^(ALL|MOSTLY)_/, ''),
    parameters: insights.totalParameters,
    weightBytes: insights.estimateModelResourceRequirements({ gpuLayers: 0 }).cpuRam,
    contextBytes: (contextSize, sequences) => insights.estimateContextResourceRequirements({ contextSize, modelGpuLayers: 0, sequences }).cpuRam,
  };
}

/** One header per model file, read again only when its size or modification time changes (so at most one entry a file). */
const headers = new Map<string, { stamp: string; header: Promise<ModelHeader> }>();

/** The file's header; rejects with the reason when it is not a GGUF model that reads. */
export function modelHeader(model: { path: string; size: number; mtimeMs: number }): Promise<ModelHeader> {
  const stamp = `${model.size}:${model.mtimeMs}`;
  const known = headers.get(model.path);
  if (known?.stamp === stamp) return known.header;
  const header = readHeader(model.path);
  headers.set(model.path, { stamp, header });
  header.catch(() => {
    if (headers.get(model.path)?.header === header) headers.delete(model.path);
  });
  return header;
}

/** The reader's own message; a TypeError or RangeError is the reader tripping over a cut or damaged header. */
const reasonOf = (err: unknown) =>
  err instanceof TypeError || err instanceof RangeError ? 'the header is truncated or damaged' : (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

async function describeChatModel(db: Db, model: LocalModel): Promise<ChatModelFile> {
  const [sha256, header] = await Promise.all([cachedSha256(db, model), modelHeader(model).then((h) => ({ h }), (err: unknown) => ({ err }))]);
  const h = 'h' in header ? header.h : undefined;
  return {
    name: model.name,
    location: model.location,
    size: model.size,
    sha256,
    modified_at: new Date(model.mtimeMs).toISOString(),
    architecture: h?.architecture ?? null,
    model_name: h?.modelName ?? null,
    context_length: h?.trainContextSize ?? null,
    quantization: h?.quantization ?? null,
    parameters: h?.parameters ?? null,
    error: 'err' in header ? `the GGUF header does not read: ${reasonOf(header.err)}` : null,
  };
}

const startsWithGgufMagic = async (file: string): Promise<boolean> => (await readFileHead(file, 4)).equals(GGUF_MAGIC);

export const chatShelf: ModelShelf<ChatModelFile> = {
  purpose: 'chat_model',
  pattern: CHAT_MODEL_NAME,
  async invalid(file, name) {
    if (!(await startsWithGgufMagic(file))) return `${name} is not a GGUF model (it does not start with "GGUF")`;
    const stat = await fs.stat(file);
    return modelHeader({ path: file, size: stat.size, mtimeMs: Math.floor(stat.mtimeMs) }).then(
      () => undefined,
      (err: unknown) => `${name} is not a GGUF model whose header reads: ${reasonOf(err)}`,
    );
  },
  describe: describeChatModel,
  completeUrl: (uploadId) => `/api/ai/models/uploads/${uploadId}/complete`,
};

/** The model a local-llama route's `model` names (a file name in one of the model folders or the storage); undefined when none. */
export async function findChatModel(dirs: ModelDirs, model: string): Promise<FoundModel | undefined> {
  return (await findModels(dirs, CHAT_MODEL_NAME)).find((m) => m.name === model);
}
