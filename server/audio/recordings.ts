// The audio of a transcription, kept so that a quote of the call can be played from its timestamp (the rep's own
// calls; an admin only through a coaching report and only when the system allows it). Formats browsers play are
// kept as uploaded; anything else (amr, aac in ADTS, aiff…) is encoded once to Ogg/Opus. Files are named by a
// random id under DATA_DIR/audio/recordings, never by the client's name.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'koa';
import type { Db } from '../db/knex.js';
import type { AudioInfo } from '../../contract/audio.js';
import { AudioErrorCode } from '../../contract/audio.js';
import { AppError } from '../http/errors.js';
import { sendStoredFile } from '../media/media.file.js';
import { cloudFormat } from './audio-formats.js';
import { encodeForPlayback } from './ffmpeg.js';
import { PRIVATE_FILE_MODE, mkdirPrivate } from '../data-dir.js';

export const recordingsDir = (dataDir: string) => path.join(dataDir, 'audio', 'recordings');

export interface StoredRecording {
  /** File name under recordingsDir. */
  recording: string;
  recording_mime: string;
}

/**
 * Moves (or, for a format browsers do not play, encodes) the transcribed upload into the recordings folder. Keeping
 * the audio never fails a transcription: on any error nothing is kept and null is returned.
 */
export async function keepRecording(dataDir: string, source: string, audio: AudioInfo, log: (err: unknown) => void, signal?: AbortSignal): Promise<StoredRecording | null> {
  const dir = recordingsDir(dataDir);
  const playable = cloudFormat(audio.format);
  const recording = `${crypto.randomUUID()}.${playable?.ext ?? 'ogg'}`;
  const target = path.join(dir, recording);
  try {
    await mkdirPrivate(dir);
    if (playable) await fs.rename(source, target);
    else await encodeForPlayback(source, target, signal);
    // Only the owner of DATA_DIR reads it, whatever mode the upload or ffmpeg gave it.
    await fs.chmod(target, PRIVATE_FILE_MODE);
    return { recording, recording_mime: playable?.mime ?? 'audio/ogg' };
  } catch (err) {
    log(err);
    await fs.rm(target, { force: true }).catch(() => undefined);
    return null;
  }
}

interface RecordingRow {
  id: number;
  filename: string;
  recording: string | null;
  recording_mime: string | null;
}

const unavailable = () =>
  new AppError(404, AudioErrorCode.recordingUnavailable, 'The audio of this call is not kept (transcribed before recordings were kept, or removed by its owner)');

/** Streams the transcription's audio with Range support (players seek with it); 404 `audio.recording_unavailable` when not kept. */
export async function sendRecording(ctx: Context, db: Db, dataDir: string, transcriptionId: number): Promise<void> {
  const row = await db<RecordingRow>('audio_transcriptions').where({ id: transcriptionId }).first('filename', 'recording', 'recording_mime');
  if (!row?.recording) throw unavailable();
  const file = path.join(recordingsDir(dataDir), row.recording);
  const exists = await fs.stat(file).then((s) => s.isFile(), () => false);
  if (!exists) throw unavailable();
  const ext = path.extname(row.recording);
  const name = `${row.filename.slice(0, row.filename.length - path.extname(row.filename).length) || 'call'}${ext}`;
  await sendStoredFile(ctx, { path: file, mimeType: row.recording_mime ?? 'application/octet-stream', filename: name, etag: row.recording });
}

/** Removes the kept audio of the owner's transcription (the text stays); false when there was none. */
export async function removeRecording(db: Db, dataDir: string, transcriptionId: number): Promise<boolean> {
  const row = await db<RecordingRow>('audio_transcriptions').where({ id: transcriptionId }).first('filename', 'recording', 'recording_mime');
  if (!row?.recording) return false;
  await db('audio_transcriptions').where({ id: transcriptionId }).update({ recording: null, recording_mime: null });
  await fs.rm(path.join(recordingsDir(dataDir), row.recording), { force: true });
  return true;
}
