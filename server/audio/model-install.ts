// An admin installs a model file from the laptop: a chunked upload (the media machinery: resumable, chunks in any
// order, GET /api/media/upload/{id} says what is missing) whose completion checks the file is a model of the
// shelf's kind (and has the sha256 given at the start, if one was), then stores it as models/<name> in the storage
// (model-store.ts: DATA_DIR/models on a laptop, the bucket on central nodes). Speech models (ggml Whisper, here) and
// chat models (GGUF, server/ai/local/chat-models.ts) are two shelves of one store.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import { AudioErrorCode, type AudioModel, type ModelUploadInit } from '../../contract/audio.js';
import { AppError, notFound } from '../http/errors.js';
import { completeUploadFor, openUploadSession, type UploadSessionRow } from '../media/media.chunked.js';
import type { MediaStore } from '../media/media.store.js';
import { sha256OfFile } from '../storage/index.js';
import { cachedSha256, describeModel, findModels, hasGgmlMagic, modelFile, MODEL_NAME, type FoundModel, type LocalModel, type ModelDirs } from './models.js';
import { modelKind, modelProblemText } from './speakers/model-kinds.js';

/** One kind of model file in the model folders. */
export interface ModelShelf<M> {
  /** The upload sessions' purpose. */
  purpose: string;
  /** The file names of this kind. */
  pattern: RegExp;
  /** Why the uploaded file is not a model of this kind; undefined when it is one. */
  invalid(file: string, name: string): Promise<string | undefined>;
  describe(db: Db, found: LocalModel): Promise<M>;
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

/**
 * The shelf's description of a model: read from its file when the file is on this node; for a stored model that is
 * not, the description recorded when it was stored (fetching it only when none was, e.g. copied into the bucket by
 * hand). A stored model's description is recorded the first time it is made.
 */
async function describeFound<M>(db: Db, dirs: ModelDirs, shelf: ModelShelf<M>, found: FoundModel): Promise<M> {
  const recorded = found.stored?.description as M | undefined;
  if (found.path === null && recorded) return { ...recorded, location: found.location, size: found.size, modified_at: new Date(found.mtimeMs).toISOString() };
  const local = await modelFile(dirs, found);
  const described = await shelf.describe(db, local);
  if (found.stored && !recorded) await dirs.store.record(found.stored.key, found.stored, await cachedSha256(db, local), described);
  return described;
}

async function installedModel<M>(db: Db, dirs: ModelDirs, shelf: ModelShelf<M>, name: string): Promise<M> {
  return describeFound(db, dirs, shelf, await findOnShelf(dirs, shelf, name));
}

const isInstalled = async (dirs: ModelDirs, name: string) => (await dirs.store.exists(name)) || (await exists(path.join(dirs.data, name)));

const modelExists = (name: string) => new AppError(409, AudioErrorCode.modelExists, `A model named ${name} is installed already: remove it first`);

export async function openModelUpload<M>(
  db: Db,
  media: MediaStore,
  dirs: ModelDirs,
  shelf: ModelShelf<M>,
  user: User,
  input: { filename: string; file_size: number; sha256?: string },
): Promise<ModelUploadInit> {
  if (await isInstalled(dirs, input.filename)) throw modelExists(input.filename);
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
  if (await isInstalled(dirs, session.filename)) throw modelExists(session.filename);
  // Described from the checked file, so that no node has to fetch the model to list it.
  const stat = await fs.stat(file);
  const description = await shelf.describe(db, { name: session.filename, path: file, location: 'data', size: stat.size, mtimeMs: Math.floor(stat.mtimeMs), sha256 });
  await dirs.store.install(session.filename, file, sha256, description);
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
  if (found.stored) {
    await dirs.store.forget(found.stored);
    // This node's copy is dropped too: the bytes are read again from the storage.
    await dirs.store.cache.evict(found.stored.key, found.stored.sha256);
  }
  if (found.path !== null) await db('audio_model_hashes').where({ file_path: found.path }).delete();
  const again = await findOnShelf(dirs, shelf, name);
  return describeFound(db, dirs, shelf, again);
}

/** Removes an installed model; the ones shipped in resources/models are read only. */
export async function removeModel<M>(db: Db, dirs: ModelDirs, shelf: ModelShelf<M>, name: string): Promise<{ name: string; deleted: true }> {
  const found = await findOnShelf(dirs, shelf, name);
  if (found.location !== 'data') throw new AppError(409, AudioErrorCode.modelReadOnly, `${name} ships with the application (resources/models) and cannot be removed here`);
  if (found.stored) await dirs.store.remove(found.stored);
  else if (found.path !== null) await fs.rm(found.path, { force: true });
  if (found.path !== null) await db('audio_model_hashes').where({ file_path: found.path }).delete();
  return { name, deleted: true };
}

/** Every model of the shelf, described one at a time (hashing several gigabytes at once would only make each slower). */
export async function listShelf<M>(db: Db, dirs: ModelDirs, shelf: ModelShelf<M>): Promise<M[]> {
  const models: M[] = [];
  for (const model of await findModels(dirs, shelf.pattern)) models.push(await describeFound(db, dirs, shelf, model));
  return models;
}
