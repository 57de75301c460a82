// A rep's voiceprint: the speaker embedding of a sample of their own speech, made by the speaker-embedding model in
// use. Only the embedding (a few hundred numbers) is stored, with the model's name and sha256 so that a voiceprint
// made by another model is never compared; the audio is deleted as soon as the embedding is made.
import path from 'node:path';
import type { Db } from '../db/knex.js';
import { now } from '../db/time.js';
import { AppError } from '../http/errors.js';
import { parseJson, toNumber } from '../db/rows.js';
import { AudioErrorCode, type VoiceprintStatus } from '../../contract/audio.js';
import { FRAME_SECONDS } from './channel-speech.js';
import { decodeAudio } from './ffmpeg.js';
import { cachedSha256, type ModelDirs } from './models.js';
import { tidyRegions, wavData } from './speakers/region-wavs.js';
import { runSherpa } from './speakers/sherpa-runner.js';
import { usableSpeakerModels } from './speakers/speaker-models.js';
import fs from 'node:fs/promises';

/** The least speech a voiceprint is made from. */
export const VOICEPRINT_MIN_SPEECH_SECONDS = 8;

interface VoiceprintRow {
  user_id: number | string;
  embedding: string;
  model: string;
  model_sha256: string;
  speech_seconds: number | string;
  created_at: string;
}

export async function voiceprintStatus(db: Db, userId: number): Promise<VoiceprintStatus> {
  const row: VoiceprintRow | undefined = await db('audio_voiceprints').where({ user_id: userId }).first();
  return row ? { enrolled: true, created_at: row.created_at, speech_seconds: toNumber(row.speech_seconds) } : { enrolled: false, created_at: null, speech_seconds: null };
}

export async function deleteVoiceprint(db: Db, userId: number): Promise<VoiceprintStatus> {
  await db('audio_voiceprints').where({ user_id: userId }).delete();
  return { enrolled: false, created_at: null, speech_seconds: null };
}

/** The caller's voiceprint when it was made by this embedding model file; else null. */
export async function voiceprintFor(db: Db, userId: number, model: { name: string; path: string; size: number; mtimeMs: number }): Promise<number[] | null> {
  const row: VoiceprintRow | undefined = await db('audio_voiceprints').where({ user_id: userId }).first();
  if (!row || row.model !== model.name) return null;
  if (row.model_sha256 !== (await cachedSha256(db, model))) return null;
  return parseJson<number[]>(row.embedding, []);
}

/** Speech of a 16 kHz mono WAV by energy (20 ms frames over -45 dBFS, short pauses bridged). */
async function speechByEnergy(wav: string): Promise<{ start: number; end: number }[]> {
  const { offset, bytes } = await wavData(wav);
  const samples = new Int16Array((await fs.readFile(wav)).buffer.slice(offset, offset + bytes - (bytes % 2)));
  const frame = Math.round(16_000 * FRAME_SECONDS);
  const regions: { start: number; end: number }[] = [];
  for (let i = 0; i + frame <= samples.length; i += frame) {
    let sum = 0;
    for (let j = i; j < i + frame; j++) sum += samples[j]! * samples[j]!;
    const db = 10 * Math.log10(sum / frame / (32768 * 32768) + 1e-12);
    if (db > -45) regions.push({ start: i / 16_000, end: (i + frame) / 16_000 });
  }
  return tidyRegions(regions, samples.length / 16_000, { pad: 0, bridge: 0.3 });
}

/**
 * Makes and stores the caller's voiceprint from an uploaded recording of their speech. 400
 * `audio.voiceprint_too_short` under 8 s of speech; 409 `audio.speaker_models_unavailable` without a working
 * speaker-embedding model. The upload and its decoded copy are deleted whatever happens.
 */
export async function enrolVoiceprint(db: Db, dirs: ModelDirs, userId: number, upload: string, workDir: string): Promise<VoiceprintStatus> {
  const models = await usableSpeakerModels(db, dirs);
  if (!models.embedding) {
    throw new AppError(409, AudioErrorCode.speakerModelsUnavailable, `A voiceprint needs the speaker-embedding model, and it cannot be used here: ${models.embeddingProblem ?? 'none is installed'}`);
  }
  await fs.mkdir(workDir, { recursive: true });
  const wav = path.join(workDir, 'voice.wav');
  try {
    await decodeAudio(upload, wav, { channels: 1, signal: AbortSignal.timeout(120_000) });
    const speech = await speechByEnergy(wav);
    const seconds = Math.round(speech.reduce((n, r) => n + r.end - r.start, 0) * 10) / 10;
    if (seconds < VOICEPRINT_MIN_SPEECH_SECONDS) {
      throw new AppError(400, AudioErrorCode.voiceprintTooShort, `The recording holds ${seconds} s of speech; a voiceprint needs at least ${VOICEPRINT_MIN_SPEECH_SECONDS} s: read the whole paragraph aloud`, {
        speech_seconds: seconds,
        minimum_seconds: VOICEPRINT_MIN_SPEECH_SECONDS,
      });
    }
    const { embeddings } = await runSherpa({ type: 'embed', embedding: models.embedding.path, items: [{ wav, ranges: speech }], threads: 1 }, { timeoutMs: 120_000 });
    const embedding = embeddings[0] ?? [];
    if (!embedding.length) throw new AppError(400, AudioErrorCode.voiceprintTooShort, 'No voice could be measured in the recording');
    const row = { user_id: userId, embedding: JSON.stringify(embedding), model: models.embedding.name, model_sha256: await cachedSha256(db, models.embedding), speech_seconds: seconds, created_at: now() };
    await db('audio_voiceprints').insert(row).onConflict('user_id').merge(['embedding', 'model', 'model_sha256', 'speech_seconds', 'created_at']);
    return { enrolled: true, created_at: row.created_at, speech_seconds: seconds };
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
    await fs.rm(upload, { force: true });
  }
}
