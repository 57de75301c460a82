// The kind of a file on the speech-model shelf, read from the file itself: a ggml Whisper model by its magic number,
// the ONNX models sherpa-onnx runs by their metadata (pyannote segmentation: window_size, receptive_field_*,
// num_classes…; speaker embedding: framework wespeaker / 3d-speaker / nemo) or, for silero VAD which carries none,
// by its inputs and outputs. Kept per path, size and modification time.
import fs from 'node:fs/promises';
import type { AudioModelKind } from '../../../contract/audio.js';
import { hasGgmlMagic } from '../models.js';
import { readOnnxInfo, type OnnxInfo } from './onnx-info.js';

/** The metadata sherpa-onnx's pyannote segmentation loader reads (it ends its process when one is missing). */
export const SEGMENTATION_KEYS = ['sample_rate', 'window_size', 'receptive_field_size', 'receptive_field_shift', 'num_speakers', 'powerset_max_classes', 'num_classes'];
/** The metadata its wespeaker / 3D-Speaker embedding loader reads. */
export const EMBEDDING_KEYS = ['framework', 'output_dim', 'sample_rate', 'normalize_samples', 'language'];
const EMBEDDING_FRAMEWORKS = ['wespeaker', '3d-speaker', 'nemo'];

export interface ModelKindInfo {
  kind: AudioModelKind | null;
  /** Why the file is not a model sherpa-onnx can load, in words; null when it looks loadable. */
  problem: string | null;
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

export function kindOfOnnx(info: OnnxInfo): ModelKindInfo {
  const keys = Object.keys(info.metadata);
  const missing = (wanted: string[]) => wanted.filter((key) => !keys.includes(key));
  if (keys.includes('num_classes') || keys.includes('receptive_field_shift') || keys.includes('powerset_max_classes')) {
    const lacks = missing(SEGMENTATION_KEYS);
    return { kind: 'speaker-segmentation', problem: lacks.length ? `its metadata lacks ${lacks.join(', ')}` : null };
  }
  if (keys.includes('framework')) {
    const framework = info.metadata.framework!;
    if (!EMBEDDING_FRAMEWORKS.includes(framework)) return { kind: null, problem: `framework "${framework}" is not a speaker-embedding framework sherpa-onnx knows (${EMBEDDING_FRAMEWORKS.join(', ')})` };
    const lacks = framework === 'nemo' ? [] : missing(EMBEDDING_KEYS);
    return { kind: 'speaker-embedding', problem: lacks.length ? `its metadata lacks ${lacks.join(', ')}` : null };
  }
  if ((same(info.inputs, ['input', 'state', 'sr']) && same(info.outputs, ['output', 'stateN'])) || (same(info.inputs, ['input', 'sr', 'h', 'c']) && same(info.outputs, ['output', 'hn', 'cn']))) {
    return { kind: 'vad', problem: null };
  }
  return { kind: null, problem: 'an ONNX model without the metadata of a speaker-segmentation or speaker-embedding model, and not a silero VAD model' };
}

const cache = new Map<string, ModelKindInfo>();

export async function modelKind(file: string): Promise<ModelKindInfo> {
  const stat = await fs.stat(file);
  const key = `${file}:${stat.size}:${stat.mtimeMs}`;
  const known = cache.get(key);
  if (known) return known;
  let found: ModelKindInfo;
  if (await hasGgmlMagic(file)) found = { kind: 'whisper', problem: null };
  else {
    const info = await readOnnxInfo(file);
    found = info ? kindOfOnnx(info) : { kind: null, problem: 'neither a ggml Whisper model nor an ONNX model' };
  }
  cache.set(key, found);
  return found;
}
