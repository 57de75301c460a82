// A spoken rep turn: multipart `audio`, transcribed on the audio routes as calls are (local first, cloud only as the
// system allows), synchronously; the transcript is the turn's text. The audio is not kept and no transcription is
// stored: the session keeps the words.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context, Next } from 'koa';
import type { Deps } from '../context.js';
import { MAX_AUDIO_BYTES } from '../../contract/audio.js';
import { mkdirPrivate } from '../data-dir.js';
import { formField, multipart, requireFile } from '../http/multipart.js';
import { validationFailed } from '../http/errors.js';
import { baseName } from '../audio/audio-formats.js';
import { probeAudio } from '../audio/ffmpeg.js';
import { localSlot } from '../audio/local-slot.js';
import { modelDirs } from '../audio/models.js';
import { ModelStore } from '../audio/model-store.js';
import { transcribe, type TranscribeRequest } from '../audio/transcribe.service.js';
import { readConfigValue } from '../system/config.service.js';
import { TURN_TEXT_MAX } from './roleplay.schema.js';

/** Keys in the local transcription line that never meet a job's id (job ids are positive). */
let nextSlotKey = 0;

export interface VoiceTurns {
  /** Parses a multipart body (the audio to disk); a JSON body passes through untouched. */
  receive(ctx: Context, next: Next): Promise<unknown>;
  /** The words spoken in the request's `audio` file; 400 when nothing was heard. */
  transcript(ctx: Context, userId: number): Promise<string>;
}

export function voiceTurns({ db, config, storage }: Pick<Deps, 'db' | 'config' | 'storage'>): VoiceTurns {
  const incoming = path.join(config.dataDir, 'audio', 'incoming');
  const scratch = path.join(config.dataDir, 'audio', 'roleplay');
  const parse = multipart({ maxFileSize: MAX_AUDIO_BYTES, uploadDir: incoming });
  const dirs = modelDirs(config.dataDir, new ModelStore(db, storage, config.dataDir));

  const receive = async (ctx: Context, next: Next) => {
    if (!ctx.is('multipart')) return next();
    await mkdirPrivate(incoming);
    return parse(ctx, next);
  };

  async function transcript(ctx: Context, userId: number): Promise<string> {
    const file = requireFile(ctx, 'audio');
    const filename = baseName(file.originalFilename ?? '') || 'turn.webm';
    const audio = await probeAudio(file.filepath, filename);
    const slotKey = --nextSlotKey;
    const workDir = path.join(scratch, String(-slotKey));
    await mkdirPrivate(workDir);
    const gone = new AbortController();
    const leave = () => gone.abort(new Error('the client went away'));
    ctx.res.once('close', leave);
    try {
      const request: TranscribeRequest = {
        userId,
        jobId: null,
        fileSize: file.size,
        filePath: file.filepath,
        filename,
        audio,
        language: formField(ctx, 'language') || undefined,
        speakersRequested: false,
        speakerCount: 1,
        allowCloud: true,
        workDir,
        modelDirs: dirs,
        quality: 'accurate',
        signal: gone.signal,
        onProgress: () => undefined,
        onRoute: () => undefined,
        holdingLocalSlot: async (work) => {
          const release = await localSlot.acquire(slotKey, gone.signal);
          try {
            request.quality = await readConfigValue<'accurate' | 'fast'>(db, 'audio_local_quality');
            return await work();
          } finally {
            release();
          }
        },
        // The session keeps the words: no transcription row for a practice turn.
        store: async () => 0,
      };
      const { text } = await transcribe(db, request);
      const words = text.trim();
      if (!words) throw validationFailed('No speech was heard in the audio: speak again or type the turn', [{ path: 'audio', message: 'no speech' }]);
      if (words.length > TURN_TEXT_MAX) throw validationFailed(`The turn is longer than ${TURN_TEXT_MAX} characters: say it in shorter turns`, [{ path: 'audio', message: 'too long' }]);
      return words;
    } finally {
      ctx.res.off('close', leave);
      await fs.rm(workDir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  return { receive, transcript };
}
