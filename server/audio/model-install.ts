// An admin installs a model file from the laptop: a chunked upload (the media machinery: resumable, chunks in any
// order, GET /api/media/upload/{id} says what is missing) whose completion checks the file is a model of the
// shelf's kind (and has the sha256 given at the start, if one was), then moves it into DATA_DIR/models. Speech
// models (ggml Whisper, here) and chat models (GGUF, server/ai/local/chat-models.ts) are two shelves of one store.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import { AudioErrorCode, type AudioModel, type ModelUploadInit } from '../../contract/audio.js';
import { AppError, notFound } from '../http/errors.js';
import { now } from '../db/time.js';
import { completeUploadFor, openUploadSession, type UploadSessionRow } from '../media/media.chunked.js';
import type { MediaStore } from '../media/media.store.js';
import { sha256OfFile } from '../storage/index.js';
import { describeModel, findModels, hasGgmlMagic, MODEL_NAME, type FoundModel, type ModelDirs } from './models.js';
import { modelKind, modelProblemText } from './speakers/model-kinds.js';

/** One kind of model file in the model folders. */
export interface ModelShelf<M> {
  /** The upload sessions' purpose. */
  purpose: string;
  /** The file names of this kind. */
  pattern: RegExp;
  /** Why the uploaded file is not a model of this kind; undefined when it is one. */
  invalid(file: string, name: string): Promise<string | undefined>;
  describe(db: Db, found: FoundModel): Promise<M>;
  completeUrl(uploadId: string): string;
}

export const speechShelf: ModelShelf<AudioModel> = {
  purpose: 'audio_model',
  pattern: MODEL_NAME,
  invalid: async (file, name) => {
    if (name.endsWith('.bin')) return (await hasGgmlMagic(file)) ? undefined : `${name} is not a ggml Whisper model (it does not start with the ggml magic number)`;
    const { kind, problem } = await modelKind(file);
    if (kind === null || kind === 'whisper') return `${name} is not a speaker-segmentation, speaker-embedding or silero VAD model: ${problem ? modelProblemText(problem) : 'a Whisper model must be named *.bin'}`;
    return problem ? `${name} cannot be used as a ${kind} model: ${modelProblemText(problem)}` : undefined;
  },
  describe: describeModel,
  completeUrl: (uploadId) => `/api/audio/models/uploads/${uploadId}/complete`,
};

const exists = (p: string) => fs.stat(p).then(() => true, () => false);

async function findOnShelf<M>(dirs: ModelDirs, shelf: ModelShelf<M>, name: string): Promise<FoundModel> {
  const found = (await findModels(dirs, shelf.pattern)).find((m) => m.name === name);
  if (!found) throw notFound(`Model ${name}`);
  return found;
}

async function installedModel<M>(db: Db, dirs: ModelDirs, shelf: ModelShelf<M>, name: string): Promise<M> {
  return shelf.describe(db, await findOnShelf(dirs, shelf, name));
}

const modelExists = (name: string) => new AppError(409, AudioErrorCode.modelExists, `A model named ${name} is installed already: remove it first`);

export async function openModelUpload<M>(
  db: Db,
  media: MediaStore,
  dirs: ModelDirs,
  shelf: ModelShelf<M>,
  user: User,
  input: { filename: string; file_size: number; sha256?: string },
): Promise<ModelUploadInit> {
  if (await exists(path.join(dirs.data, input.filename))) throw modelExists(input.filename);
  const session = await openUploadSession(db, media, user, { filename: input.filename, file_size: input.file_size, purpose: shelf.purpose, expected_sha256: input.sha256 });
  return { ...session, chunk_url: '/api/media/upload/chunk', complete_url: shelf.completeUrl(session.upload_id) };
}

async function install<M>(db: Db, dirs: ModelDirs, shelf: ModelShelf<M>, file: string, session: UploadSessionRow): Promise<M> {
  const invalid = await shelf.invalid(file, session.filename);
  if (invalid) throw new AppError(400, AudioErrorCode.invalidModel, invalid);
  const { sha256 } = await sha256OfFile(file);
  if (session.expected_sha256 && session.expected_sha256 !== sha256) {
    throw new AppError(400, AudioErrorCode.invalidModel, `${session.filename} has sha256 ${sha256}, not the ${session.expected_sha256} given when the upload started: send the chunks again`, { sha256, expected: session.expected_sha256 });
  }
  const target = path.join(dirs.data, session.filename);
  if (await exists(target)) throw modelExists(session.filename);
  await fs.mkdir(dirs.data, { recursive: true });
  // Models are read by native runtimes from a file: they stay in this node's DATA_DIR/models (docs/storage.md).
  await fs.rename(file, target).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EXDEV') throw err;
    await fs.copyFile(file, target);
  });
  const stat = await fs.stat(target);
  await db('audio_model_hashes')
    .insert({ file_path: target, size: stat.size, mtime_ms: Math.floor(stat.mtimeMs), sha256, computed_at: now() })
    .onConflict('file_path')
    .merge(['size', 'mtime_ms', 'sha256', 'computed_at']);
  return installedModel(db, dirs, shelf, session.filename);
}

/** 201 with the model the first time; the same model again (200) when the client retries a completed upload. */
export async function completeModelUpload<M>(db: Db, media: MediaStore, dirs: ModelDirs, shelf: ModelShelf<M>, user: User, uploadId: string): Promise<{ model: M; created: boolean }> {
  const { result, created } = await completeUploadFor(db, media, user, uploadId, {
    purpose: shelf.purpose,
    finish: async (key, session) => {
      const model = await media.storage.withLocalCopy(key, (file) => install(db, dirs, shelf, file, session));
      await media.storage.delete(key);
      return { result: model };
    },
    completed: (session) => installedModel(db, dirs, shelf, session.filename),
  });
  return { model: result, created };
}

/** Hashes the file again, whatever the cache says (a file changed in place keeps its size and may keep its mtime). */
export async function verifyModel<M>(db: Db, dirs: ModelDirs, shelf: ModelShelf<M>, name: string): Promise<M> {
  const found = await findOnShelf(dirs, shelf, name);
  await db('audio_model_hashes').where({ file_path: found.path }).delete();
  return shelf.describe(db, found);
}

/** Removes an installed model; the ones shipped in resources/models are read only. */
export async function removeModel<M>(db: Db, dirs: ModelDirs, shelf: ModelShelf<M>, name: string): Promise<{ name: string; deleted: true }> {
  const found = await findOnShelf(dirs, shelf, name);
  if (found.location !== 'data') throw new AppError(409, AudioErrorCode.modelReadOnly, `${name} ships with the application (resources/models) and cannot be removed here`);
  await fs.rm(found.path, { force: true });
  await db('audio_model_hashes').where({ file_path: found.path }).delete();
  return { name, deleted: true };
}

/** Every model of the shelf, described one at a time (hashing several gigabytes at once would only make each slower). */
export async function listShelf<M>(db: Db, dirs: ModelDirs, shelf: ModelShelf<M>): Promise<M[]> {
  const models: M[] = [];
  for (const model of await findModels(dirs, shelf.pattern)) models.push(await shelf.describe(db, model));
  return models;
}
