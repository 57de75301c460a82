// The audio of a transcription, kept so that a quote of the call can be played from its timestamp (the rep's own
// calls; an admin only through a coaching report and only when the system allows it). Formats browsers play are
// kept as uploaded; anything else (amr, aac in ADTS, aiff…) is encoded once to Ogg/Opus. Files are named by a
// random id under audio/recordings/ in the storage (DATA_DIR or the bucket), never by the client's name.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Context } from 'koa';
import type { Db } from '../db/knex.js';
import type { AudioInfo } from '../../contract/audio.js';
import { AudioErrorCode } from '../../contract/audio.js';
import { AppError } from '../http/errors.js';
import { objectSource, sendFile } from '../http/file-response.js';
import { keys, type Storage } from '../storage/index.js';
import { cloudFormat } from './audio-formats.js';
import { encodeForPlayback } from './ffmpeg.js';


export interface StoredRecording {
  /** Its name: the storage key is keys.recording(recording). */
  recording: string;
  recording_mime: string;
}

/**
 * Copies (or, for a format browsers do not play, encodes) the transcribed audio into the recordings: `stored` is the
 * job's object and `file` a local copy of it (for ffmpeg). Keeping the audio never fails a transcription: on any
 * error nothing is kept and null is returned.
 */
export async function keepRecording(storage: Storage, stored: { key: string; file: string }, audio: AudioInfo, log: (err: unknown) => void, signal?: AbortSignal): Promise<StoredRecording | null> {
  const playable = cloudFormat(audio.format);
  const recording = `${crypto.randomUUID()}.${playable?.ext ?? 'ogg'}`;
  let encoded: string | undefined;
  try {
    if (playable) {
      // A copy inside the store (S3 CopyObject): the bytes do not come back through this node.
      await storage.copy(stored.key, keys.recording(recording));
    } else {
      // ffmpeg writes a temporary file beside the system's others; the storage takes it from there.
      encoded = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-recording-'));
      const file = path.join(encoded, recording);
      await encodeForPlayback(stored.file, file, signal);
      await storage.putFile(keys.recording(recording), file, { move: true, contentType: 'audio/ogg' });
    }
    return { recording, recording_mime: playable?.mime ?? 'audio/ogg' };
  } catch (err) {
    log(err);
    await storage.delete(keys.recording(recording)).catch(() => undefined);
    return null;
  } finally {
    if (encoded) await fs.rm(encoded, { recursive: true, force: true }).catch(() => undefined);
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
export async function sendRecording(ctx: Context, db: Db, storage: Storage, transcriptionId: number): Promise<void> {
  const row = await db<RecordingRow>('audio_transcriptions').where({ id: transcriptionId }).first('filename', 'recording', 'recording_mime');
  if (!row?.recording) throw unavailable();
  const source = await objectSource(storage, keys.recording(row.recording), unavailable);
  const ext = path.extname(row.recording);
  const name = `${row.filename.slice(0, row.filename.length - path.extname(row.filename).length) || 'call'}${ext}`;
  await sendFile(ctx, source, { filename: name, mimeType: row.recording_mime ?? 'application/octet-stream', etag: row.recording });
}

/** Removes the kept audio of the owner's transcription (the text stays); false when there was none. */
export async function removeRecording(db: Db, storage: Storage, transcriptionId: number): Promise<boolean> {
  const row = await db<RecordingRow>('audio_transcriptions').where({ id: transcriptionId }).first('filename', 'recording', 'recording_mime');
  if (!row?.recording) return false;
  await db('audio_transcriptions').where({ id: transcriptionId }).update({ recording: null, recording_mime: null });
  await storage.delete(keys.recording(row.recording));
  return true;
}
