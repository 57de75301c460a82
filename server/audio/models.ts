// Local speech models: ggml Whisper files and the ONNX speaker / VAD models sherpa-onnx runs, in resources/models
// (shipped with the app, read only), DATA_DIR/models (copied there by hand) and the storage's models/ (installed by
// an admin through the API; on a laptop that is DATA_DIR/models too, on central nodes the bucket: model-store.ts).
// Each file's sha256 is computed once and kept with its size and modification time, so a
// 3 GB model is hashed again only when it changes. A file whose name, size and sha256 are those of a published
// whisper.cpp model is "official"; any other file is listed as unverified, not refused.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/knex.js';
import type { AudioModel } from '../../contract/audio.js';
import { projectRoot } from '../config.js';
import { now } from '../db/time.js';
import { toNumber } from '../db/rows.js';
import { readFileHead } from '../file-head.js';
import { sha256OfFile } from '../storage/index.js';
import { modelKind, modelProblemText } from './speakers/model-kinds.js';
import type { ModelStore, StoredModel } from './model-store.js';

/**
 * The ggml files published with whisper.cpp (its models/README and download-ggml-model.sh point at the
 * ggerganov/whisper.cpp repository on Hugging Face): file name, size in bytes and sha256 of the LFS object.
 */
export const OFFICIAL_MODELS: { name: string; file: string; size: number; sha256: string }[] = [
  { name: 'tiny', file: 'ggml-tiny.bin', size: 77_691_713, sha256: 'be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21' },
  { name: 'tiny.en', file: 'ggml-tiny.en.bin', size: 77_704_715, sha256: '921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f' },
  { name: 'base', file: 'ggml-base.bin', size: 147_951_465, sha256: '60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe' },
  { name: 'base.en', file: 'ggml-base.en.bin', size: 147_964_211, sha256: 'a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002' },
  { name: 'small', file: 'ggml-small.bin', size: 487_601_967, sha256: '1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b' },
  { name: 'small.en', file: 'ggml-small.en.bin', size: 487_614_201, sha256: 'c6138d6d58ecc8322097e0f987c32f1be8bb0a18532a3f88f734d1bbf9c41e5d' },
  { name: 'small-q8_0', file: 'ggml-small-q8_0.bin', size: 264_464_607, sha256: '49c8fb02b65e6049d5fa6c04f81f53b867b5ec9540406812c643f177317f779f' },
  { name: 'small.en-q8_0', file: 'ggml-small.en-q8_0.bin', size: 264_477_561, sha256: '67a179f608ea6114bd3fdb9060e762b588a3fb3bd00c4387971be4d177958067' },
  { name: 'medium', file: 'ggml-medium.bin', size: 1_533_763_059, sha256: '6c14d5adee5f86394037b4e4e8b59f1673b6cee10e3cf0b11bbdbee79c156208' },
  { name: 'large-v3', file: 'ggml-large-v3.bin', size: 3_095_033_483, sha256: '64d182b440b98d5203c4f9bd541544d84c605196c4f7b845dfa11fb23594d1e2' },
  { name: 'large-v3-turbo', file: 'ggml-large-v3-turbo.bin', size: 1_624_555_275, sha256: '1fc70f774d38eb169993ac391eea357ef47c88757ef72ee5943879b7e8e2bc69' },
  { name: 'large-v3-turbo-q5_0', file: 'ggml-large-v3-turbo-q5_0.bin', size: 574_041_195, sha256: '394221709cd5ad1f40c46e6031ca61bce88931e6e088c188294c6d5a55ffa7e2' },
];

/** The first four bytes of a whisper.cpp ggml model ("ggml" as a little-endian uint32). */
export const GGML_MAGIC = 0x67676d6c;

/** A plain model file name: no folder part, ends in .bin (ggml Whisper) or .onnx (speaker and VAD models). */
export const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.(bin|onnx)$/;

export interface ModelDirs {
  /** Read only: shipped with the app. */
  resources: string[];
  /** Copied by hand onto this node (on a laptop also where the storage keeps installed models). */
  data: string;
  /** Installed by admins through the API, in the storage. */
  store: ModelStore;
}

export function modelDirs(dataDir: string, store: ModelStore): ModelDirs {
  const electronResources = (process as { resourcesPath?: string }).resourcesPath;
  const resources = [path.join(projectRoot(), 'resources', 'models'), ...(electronResources ? [path.join(electronResources, 'models')] : [])];
  return { resources: [...new Set(resources)], data: path.join(dataDir, 'models'), store };
}

export interface FoundModel {
  name: string;
  /** The file on this node; null for a stored model this node has not fetched yet (modelFile fetches it). */
  path: string | null;
  location: AudioModel['location'];
  size: number;
  mtimeMs: number;
  /** A model in the storage (installed through the API). */
  stored?: StoredModel;
  /** Known without reading the file (recorded when the model was stored). */
  sha256?: string;
}

/** A model whose file is on this node. */
export type LocalModel = FoundModel & { path: string };

async function filesIn(dir: string, location: AudioModel['location'], pattern: RegExp): Promise<LocalModel[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const found = await Promise.all(
    names
      .filter((name) => pattern.test(name))
      .map(async (name) => {
        const stat = await fs.stat(path.join(dir, name)).catch(() => undefined);
        return stat?.isFile() ? { name, path: path.join(dir, name), location, size: stat.size, mtimeMs: Math.floor(stat.mtimeMs) } : undefined;
      }),
  );
  return found.filter((f): f is LocalModel => f !== undefined);
}

const fromStore = (m: StoredModel): FoundModel => ({ name: m.name, path: m.path ?? null, location: 'data', size: m.size, mtimeMs: m.mtimeMs, stored: m, sha256: m.sha256 });

/**
 * Every model file whose name matches `pattern` (speech models by default); an installed model wins over a file of
 * the same name copied into DATA_DIR/models, which wins over the same name shipped in resources.
 */
export async function findModels(dirs: ModelDirs, pattern: RegExp = MODEL_NAME): Promise<FoundModel[]> {
  const lists = await Promise.all([
    dirs.store.list(pattern).then((stored) => stored.map(fromStore)),
    filesIn(dirs.data, 'data', pattern),
    ...dirs.resources.map((dir) => filesIn(dir, 'resources', pattern)),
  ]);
  const byName = new Map<string, FoundModel>();
  for (const model of lists.flat()) if (!byName.has(model.name)) byName.set(model.name, model);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The model with its file on this node: a stored model this node has not run yet is fetched into its cache first. */
export async function modelFile(dirs: ModelDirs, model: FoundModel): Promise<LocalModel> {
  if (model.path !== null) return model as LocalModel;
  const { file, sha256 } = await dirs.store.fileOf(model.stored!);
  return { ...model, path: file, sha256 };
}

/**
 * The model a local-whisper route's `model` names: a path (absolute, as before), a file name in one of the model
 * folders or the storage, or an official short name ("base" for ggml-base.bin). undefined when there is none.
 */
export async function findModel(dirs: ModelDirs, model: string): Promise<FoundModel | undefined> {
  if (path.isAbsolute(model)) {
    const stat = await fs.stat(model).catch(() => undefined);
    return stat?.isFile() ? { name: path.basename(model), path: model, location: 'data', size: stat.size, mtimeMs: Math.floor(stat.mtimeMs) } : undefined;
  }
  const models = await findModels(dirs);
  return models.find((m) => m.name === model) ?? models.find((m) => m.name === `ggml-${model}.bin`);
}

/** The file to run for a route's `model` (fetched into this node's cache if needed); undefined when there is none. */
export async function resolveModel(dirs: ModelDirs, model: string): Promise<string | undefined> {
  const found = await findModel(dirs, model);
  return found ? (await modelFile(dirs, found)).path : undefined;
}


/** Hashes in progress, so that two listings at once read a file once. */
const hashing = new Map<string, Promise<string>>();

/** The file's sha256: recorded with a stored model, or from the cache when its size and modification time are unchanged. */
export async function cachedSha256(db: Db, file: { path: string; size: number; mtimeMs: number; sha256?: string }): Promise<string> {
  if (file.sha256) return file.sha256;
  const row: { size: number | string; mtime_ms: number | string; sha256: string } | undefined = await db('audio_model_hashes').where({ file_path: file.path }).first();
  if (row && toNumber(row.size) === file.size && toNumber(row.mtime_ms) === file.mtimeMs) return row.sha256;
  const key = `${file.path}:${file.size}:${file.mtimeMs}`;
  let pending = hashing.get(key);
  if (!pending) {
    pending = sha256OfFile(file.path).then((r) => r.sha256).finally(() => hashing.delete(key));
    hashing.set(key, pending);
  }
  const sha256 = await pending;
  await db('audio_model_hashes')
    .insert({ file_path: file.path, size: file.size, mtime_ms: file.mtimeMs, sha256, computed_at: now() })
    .onConflict('file_path')
    .merge(['size', 'mtime_ms', 'sha256', 'computed_at']);
  return sha256;
}

export const officialModel = (name: string, size: number, sha256: string) => OFFICIAL_MODELS.find((m) => m.file === name && m.size === size && m.sha256 === sha256);

export async function describeModel(db: Db, model: LocalModel): Promise<AudioModel> {
  const sha256 = await cachedSha256(db, model);
  const official = officialModel(model.name, model.size, sha256);
  const { kind, problem } = await modelKind(model.path);
  return {
    kind,
    problem: problem && modelProblemText(problem),
    name: model.name,
    location: model.location,
    size: model.size,
    sha256,
    official: official?.name ?? null,
    verification: official ? 'official' : 'unverified',
    modified_at: new Date(model.mtimeMs).toISOString(),
  };
}

/** Whether the file starts like a ggml Whisper model. */
export async function hasGgmlMagic(file: string): Promise<boolean> {
  const head = await readFileHead(file, 4);
  return head.length === 4 && head.readUInt32LE(0) === GGML_MAGIC;
}
