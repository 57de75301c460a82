// The kind of a file on the speech-model shelf, read from the file itself: a ggml Whisper model by its magic number,
// the ONNX models sherpa-onnx runs by their metadata (pyannote segmentation: window_size, receptive_field_*,
// num_classes…; speaker embedding: framework wespeaker / 3d-speaker / nemo) or, for silero VAD which carries none,
// by its inputs and outputs. Kept per path, size and modification time.
import fs from 'node:fs/promises';
import type { AudioModelKind, ModelProblem } from '../../../contract/audio.js';
import { hasGgmlMagic } from '../models.js';
import { readOnnxInfo, type OnnxInfo } from './onnx-info.js';

/** The metadata sherpa-onnx's pyannote segmentation loader reads (it ends its process when one is missing). */
export const SEGMENTATION_KEYS = ['sample_rate', 'window_size', 'receptive_field_size', 'receptive_field_shift', 'num_speakers', 'powerset_max_classes', 'num_classes'];
/** The metadata its wespeaker / 3D-Speaker embedding loader reads. */
export const EMBEDDING_KEYS = ['framework', 'output_dim', 'sample_rate', 'normalize_samples', 'language'];
const EMBEDDING_FRAMEWORKS = ['wespeaker', '3d-speaker', 'nemo'];

export interface ModelKindInfo {
  kind: AudioModelKind | null;
  /** Why the file is not a model sherpa-onnx can load; null when it looks loadable. */
  problem: ModelProblem | null;
}

/** A model's problem in English words (the API's `problem` and reasons; the interface words the code itself). */
export function modelProblemText(problem: ModelProblem): string {
  switch (problem.code) {
    case 'metadata_lacks':
      return `its metadata lacks ${problem.keys}`;
    case 'unknown_framework':
      return `framework "${problem.framework}" is not a speaker-embedding framework sherpa-onnx knows (${problem.known})`;
    case 'no_speaker_metadata':
      return 'an ONNX model without the metadata of a speaker-segmentation or speaker-embedding model, and not a silero VAD model';
    case 'not_a_model':
      return 'neither a ggml Whisper model nor an ONNX model';
    case 'unreadable':
      return 'unreadable';
  }
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

export function kindOfOnnx(info: OnnxInfo): ModelKindInfo {
  const keys = Object.keys(info.metadata);
  const missing = (wanted: string[]) => wanted.filter((key) => !keys.includes(key));
  if (keys.includes('num_classes') || keys.includes('receptive_field_shift') || keys.includes('powerset_max_classes')) {
    const lacks = missing(SEGMENTATION_KEYS);
    return { kind: 'speaker-segmentation', problem: lacks.length ? { code: 'metadata_lacks', keys: lacks.join(', ') } : null };
  }
  if (keys.includes('framework')) {
    const framework = info.metadata.framework!;
    if (!EMBEDDING_FRAMEWORKS.includes(framework)) return { kind: null, problem: { code: 'unknown_framework', framework, known: EMBEDDING_FRAMEWORKS.join(', ') } };
    const lacks = framework === 'nemo' ? [] : missing(EMBEDDING_KEYS);
    return { kind: 'speaker-embedding', problem: lacks.length ? { code: 'metadata_lacks', keys: lacks.join(', ') } : null };
  }
  if ((same(info.inputs, ['input', 'state', 'sr']) && same(info.outputs, ['output', 'stateN'])) || (same(info.inputs, ['input', 'sr', 'h', 'c']) && same(info.outputs, ['output', 'hn', 'cn']))) {
    return { kind: 'vad', problem: null };
  }
  return { kind: null, problem: { code: 'no_speaker_metadata' } };
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
    found = info ? kindOfOnnx(info) : { kind: null, problem: { code: 'not_a_model' } };
  }
  cache.set(key, found);
  return found;
}
