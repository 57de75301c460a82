import fs from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Deps } from '../context.js';
import { AudioErrorCode, AudioFormats, MAX_AUDIO_BYTES } from '../../contract/audio.js';
import { currentUser } from '../auth/guards.js';
import { badRequest } from '../http/errors.js';
import { multipart, requireFile } from '../http/multipart.js';
import { parseId, parseQuery } from '../http/validate.js';
import { audioFormatOf, baseName } from './audio-formats.js';
import { TranscriptionListQuery, transcribeOptions } from './audio.schema.js';
import { getTranscription, transcribe } from './transcribe.service.js';
import { listTranscriptions } from './transcriptions.repository.js';

/** Speech-to-text under /api/audio (spec 4.11); any logged-in user, each seeing only their own transcriptions. */
export function audioRoutes({ db, config, requireUser }: Deps): Router {
  const router = new Router({ prefix: '/audio' });
  const incoming = path.join(config.dataDir, 'audio', 'incoming');
  const receive = multipart({ maxFileSize: MAX_AUDIO_BYTES, uploadDir: incoming });
  const receiveAudio = async (ctx: Context, next: Next) => {
    await fs.mkdir(incoming, { recursive: true });
    return receive(ctx, next);
  };

  router.post('/transcribe', requireUser, receiveAudio, async (ctx) => {
    const file = requireFile(ctx, 'file');
    const filename = baseName(file.originalFilename ?? '');
    const format = audioFormatOf(filename);
    if (!format) {
      throw badRequest(`Unsupported audio format "${filename}": accepted are ${AudioFormats.join(', ')}`, undefined, AudioErrorCode.unsupportedFormat);
    }
    const options = transcribeOptions(ctx);
    const client = new AbortController();
    ctx.res.once('close', () => client.abort(new Error('the client disconnected')));
    ctx.body = await transcribe(db, {
      userId: currentUser(ctx).id,
      filePath: file.filepath,
      filename,
      format,
      fileSize: file.size,
      ...options,
      modelsDir: config.modelsDir,
      signal: client.signal,
    });
  });

  router.get('/transcriptions', requireUser, async (ctx) => {
    ctx.body = await listTranscriptions(db, currentUser(ctx).id, parseQuery(ctx, TranscriptionListQuery));
  });

  router.get('/transcriptions/:id', requireUser, async (ctx) => {
    ctx.body = await getTranscription(db, currentUser(ctx).id, parseId(ctx.params.id, 'Transcription'));
  });

  return router;
}
