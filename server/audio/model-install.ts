// An admin installs a speech model from a file on the laptop: a chunked upload (the media machinery: resumable,
// chunks in any order, GET /api/media/upload/{id} says what is missing) whose completion checks the file is a ggml
// Whisper model (and has the sha256 given at the start, if one was), then moves it into DATA_DIR/models.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import { AudioErrorCode, type AudioModel, type ModelUploadInit } from '../../contract/audio.js';
import { AppError, notFound } from '../http/errors.js';
import { now } from '../db/time.js';
import { completeUploadFor, openUploadSession, type UploadSessionRow } from '../media/media.chunked.js';
import type { MediaDirs } from '../media/media.storage.js';
import { describeModel, findModels, hasGgmlMagic, sha256File, type ModelDirs } from './models.js';

export const MODEL_UPLOAD_PURPOSE = 'audio_model';

const exists = (p: string) => fs.stat(p).then(() => true, () => false);

async function installedModel(db: Db, dirs: ModelDirs, name: string): Promise<AudioModel> {
  const found = (await findModels(dirs)).find((m) => m.name === name);
  if (!found) throw notFound(`Model ${name}`);
  return describeModel(db, found);
}

const modelExists = (name: string) => new AppError(409, AudioErrorCode.modelExists, `A model named ${name} is installed already: remove it first`);

export async function openModelUpload(db: Db, media: MediaDirs, dirs: ModelDirs, user: User, input: { filename: string; file_size: number; sha256?: string }): Promise<ModelUploadInit> {
  if (await exists(path.join(dirs.data, input.filename))) throw modelExists(input.filename);
  const session = await openUploadSession(db, media, user, { filename: input.filename, file_size: input.file_size, purpose: MODEL_UPLOAD_PURPOSE, expected_sha256: input.sha256 });
  return { ...session, chunk_url: '/api/media/upload/chunk', complete_url: `/api/audio/models/uploads/${session.upload_id}/complete` };
}

async function install(db: Db, dirs: ModelDirs, file: string, session: UploadSessionRow): Promise<AudioModel> {
  if (!(await hasGgmlMagic(file))) throw new AppError(400, AudioErrorCode.invalidModel, `${session.filename} is not a ggml Whisper model (it does not start with the ggml magic number)`);
  const sha256 = await sha256File(file);
  if (session.expected_sha256 && session.expected_sha256 !== sha256) {
    throw new AppError(400, AudioErrorCode.invalidModel, `${session.filename} has sha256 ${sha256}, not the ${session.expected_sha256} given when the upload started: send the chunks again`, { sha256, expected: session.expected_sha256 });
  }
  const target = path.join(dirs.data, session.filename);
  if (await exists(target)) throw modelExists(session.filename);
  await fs.mkdir(dirs.data, { recursive: true });
  await fs.rename(file, target);
  const stat = await fs.stat(target);
  await db('audio_model_hashes')
    .insert({ file_path: target, size: stat.size, mtime_ms: Math.floor(stat.mtimeMs), sha256, computed_at: now() })
    .onConflict('file_path')
    .merge(['size', 'mtime_ms', 'sha256', 'computed_at']);
  return installedModel(db, dirs, session.filename);
}

/** 201 with the model the first time; the same model again (200) when the client retries a completed upload. */
export async function completeModelUpload(db: Db, media: MediaDirs, dirs: ModelDirs, user: User, uploadId: string): Promise<{ model: AudioModel; created: boolean }> {
  const { result, created } = await completeUploadFor(db, media, user, uploadId, {
    purpose: MODEL_UPLOAD_PURPOSE,
    finish: async (file, session) => ({ result: await install(db, dirs, file, session) }),
    completed: (session) => installedModel(db, dirs, session.filename),
  });
  return { model: result, created };
}

/** Hashes the file again, whatever the cache says (a file changed in place keeps its size and may keep its mtime). */
export async function verifyModel(db: Db, dirs: ModelDirs, name: string): Promise<AudioModel> {
  const found = (await findModels(dirs)).find((m) => m.name === name);
  if (!found) throw notFound(`Model ${name}`);
  await db('audio_model_hashes').where({ file_path: found.path }).delete();
  return describeModel(db, found);
}

/** Removes an installed model; the ones shipped in resources/models are read only. */
export async function removeModel(db: Db, dirs: ModelDirs, name: string): Promise<{ name: string; deleted: true }> {
  const found = (await findModels(dirs)).find((m) => m.name === name);
  if (!found) throw notFound(`Model ${name}`);
  if (found.location !== 'data') throw new AppError(409, AudioErrorCode.modelReadOnly, `${name} ships with the application (resources/models) and cannot be removed here`);
  await fs.rm(found.path, { force: true });
  await db('audio_model_hashes').where({ file_path: found.path }).delete();
  return { name, deleted: true };
}
