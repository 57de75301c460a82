import path from 'node:path';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Deps } from '../context.js';
import { MAX_AUDIO_BYTES, type TranscriptionJob, type TranscriptionJobEvent } from '../../contract/audio.js';
import { currentUser } from '../auth/guards.js';
import { AppError } from '../http/errors.js';
import { multipart, requireFile } from '../http/multipart.js';
import { openEventStream } from '../http/sse.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { mediaStore } from '../media/media.store.js';
import { baseName } from './audio-formats.js';
import { safeFileName } from '../http/plain-text.js';
import { LARGE_TRANSCRIPT_SEGMENTS, offload } from '../workers/pool.js';
import { WorkbenchErrorCode } from '../../contract/workbench.js';
import { ExportQuery, JobListQuery, ModelName, RevisionInput, RevisionQuery, TranscriptionListQuery, transcribeOptions } from './audio.schema.js';
import { saveRevision } from './revisions.service.js';
import { EXPORT_TYPES } from './transcript-export.js';
import { deleteVoiceprint, enrolVoiceprint, voiceprintStatus } from './voiceprints.js';
import { probeAudio } from './ffmpeg.js';
import { TranscriptionJobs, isFinished } from './jobs.service.js';
import { speechShelf } from './model-install.js';
import { mountModelShelf } from './model-shelf.routes.js';
import { modelDirs } from './models.js';
import { ModelStore } from './model-store.js';
import { getTranscription } from './transcribe.service.js';
import { listTranscriptions } from './transcriptions.repository.js';
import { mkdirPrivate } from '../data-dir.js';
import { removeRecording, sendRecording } from './recordings.js';
import { retryJob } from './job-retry.js';
import { documented } from '../http/openapi.js';

/** How often a job not running in this process (waiting in the queue, or run by another node) is read again for its event stream. */
const POLL_MS = 1_000;

/** The event that ends a finished job's stream. */
function finalEvent(job: TranscriptionJob): TranscriptionJobEvent {
  if (job.state === 'done') return { type: 'done', job, transcription_id: job.transcription_id! };
  if (job.state === 'cancelled') return { type: 'cancelled', job };
  return { type: 'error', job, error: job.error ?? { status: 500, code: 'internal_error', message: 'The transcription failed' } };
}

/**
 * Speech-to-text under /api/audio (spec 4.11): transcription jobs and the caller's transcriptions for any user,
 * each seeing only their own; local models for admins.
 */
export function audioRoutes({ db, config, storage, jobs: queue, requireUser, requireAdmin, onClose }: Deps): Router {
  const router = new Router({ prefix: '/audio' });
  const incoming = path.join(config.dataDir, 'audio', 'incoming');
  const receive = multipart({ maxFileSize: MAX_AUDIO_BYTES, uploadDir: incoming });
  const receiveAudio = async (ctx: Context, next: Next) => {
    await mkdirPrivate(incoming);
    return receive(ctx, next);
  };
  const models = modelDirs(config.dataDir, new ModelStore(db, storage, config.dataDir));
  const media = mediaStore(storage, config.dataDir);
  const log = (err: unknown) => {
    if (process.env.NODE_ENV !== 'test') console.error('[audio]', err);
  };
  const jobs = new TranscriptionJobs(db, config.dataDir, models, log, storage, queue, config.jobLeaseSeconds);
  const startup = jobs.recover().catch(log);
  onClose(async () => {
    await startup;
    await jobs.close();
  });

  router.post('/transcribe', requireUser, receiveAudio, async (ctx) => {
    const file = requireFile(ctx, 'file');
    const filename = baseName(file.originalFilename ?? '');
    const options = transcribeOptions(ctx);
    // Bad audio is refused here, before anything is stored; the upload is removed by multipart().
    const audio = await probeAudio(file.filepath, filename);
    const user = currentUser(ctx);
    const job = await jobs.submit({
      userId: user.id,
      upload: file.filepath,
      filename,
      fileSize: file.size,
      audio,
      options: { language: options.language ?? null, speakers_requested: options.speakersRequested, channel_names: options.channelNames ?? null, allow_cloud: options.allowCloud, speaker_count: options.speakerCount ?? null },
    });
    if (options.async) {
      ctx.status = 202;
      ctx.set('Location', `/api/audio/jobs/${job.id}`);
      ctx.body = job;
      return;
    }
    // Synchronous: the answer is the transcription, or the job's error with the status it carries.
    const leave = () => void jobs.cancel(user.id, job.id).catch(() => undefined);
    ctx.res.once('close', leave);
    await jobs.settled(job.id);
    ctx.res.off('close', leave);
    const finished = await jobs.get(user.id, job.id);
    if (finished.state === 'done') {
      ctx.body = await getTranscription(db, user.id, finished.transcription_id!);
      return;
    }
    const error = finished.error ?? { status: 409, code: 'audio.job_cancelled', message: 'The transcription was cancelled' };
    throw new AppError(error.status, error.code, error.message, error.details);
  });

  router.get('/jobs', requireUser, documented({ query: JobListQuery }), async (ctx) => {
    ctx.body = await jobs.list(currentUser(ctx).id, parseQuery(ctx, JobListQuery));
  });

  router.get('/jobs/:id', requireUser, async (ctx) => {
    ctx.body = await jobs.get(currentUser(ctx).id, parseId(ctx.params.id, 'Transcription job'));
  });

  router.delete('/jobs/:id', requireUser, async (ctx) => {
    ctx.body = await jobs.cancel(currentUser(ctx).id, parseId(ctx.params.id, 'Transcription job'));
  });

  // A failed job again, from its kept recording and options: a new job (202), which replaces the failed one.
  router.post('/jobs/:id/retry', requireUser, async (ctx) => {
    const job = await retryJob(db, jobs, storage, incoming, currentUser(ctx).id, parseId(ctx.params.id, 'Transcription job'));
    ctx.status = 202;
    ctx.set('Location', `/api/audio/jobs/${job.id}`);
    ctx.body = job;
  });

  router.get('/jobs/:id/events', requireUser, async (ctx) => {
    const userId = currentUser(ctx).id;
    const id = parseId(ctx.params.id, 'Transcription job');
    const job = await jobs.get(userId, id);
    const stream = openEventStream(ctx);
    if (isFinished(job)) {
      stream.send(finalEvent(job));
      stream.end();
      return;
    }
    const send = (event: TranscriptionJobEvent) => {
      stream.send(event);
      if (event.type !== 'progress') stream.end();
    };
    // While the job runs in this process, every change is sent as it happens; otherwise (waiting in the queue, run
    // by another node, finished in between) the row is read each POLL_MS until the job runs here or is finished.
    void (async () => {
      let last = '';
      while (!stream.closed) {
        const unsubscribe = jobs.subscribe(id, send);
        if (unsubscribe) {
          stream.signal.addEventListener('abort', unsubscribe, { once: true });
          const current = await jobs.get(userId, id);
          send(isFinished(current) ? finalEvent(current) : { type: 'progress', job: current });
          return;
        }
        const current = await jobs.get(userId, id).catch(() => undefined);
        if (!current) break;
        if (isFinished(current)) {
          send(finalEvent(current));
          break;
        }
        const seen = JSON.stringify(current);
        if (seen !== last) send({ type: 'progress', job: current });
        last = seen;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      stream.end();
    })().catch(log);
  });

  router.get('/transcriptions', requireUser, documented({ query: TranscriptionListQuery }), async (ctx) => {
    ctx.body = await listTranscriptions(db, currentUser(ctx).id, parseQuery(ctx, TranscriptionListQuery));
  });

  router.get('/transcriptions/:id', requireUser, documented({ query: RevisionQuery }), async (ctx) => {
    const { revision } = parseQuery(ctx, RevisionQuery);
    ctx.body = await getTranscription(db, currentUser(ctx).id, parseId(ctx.params.id, 'Transcription'), revision);
  });

  // The editor saves a new revision from the one it loaded (409 when another save came first).
  router.put('/transcriptions/:id/segments', requireUser, documented({ body: RevisionInput }), async (ctx) => {
    ctx.body = await saveRevision(db, currentUser(ctx).id, parseId(ctx.params.id, 'Transcription'), parseBody(ctx, RevisionInput));
  });

  router.get('/transcriptions/:id/export', requireUser, documented({ query: ExportQuery }), async (ctx) => {
    const user = currentUser(ctx);
    const query = parseQuery(ctx, ExportQuery);
    const transcription = await getTranscription(db, user.id, parseId(ctx.params.id, 'Transcription'), query.revision);
    const language = query.lang ?? (user.locale === 'en' ? 'en' : 'zh-CN');
    const exported = await offload('exportFile', { transcription, format: query.format, language }, transcription.segments.length >= LARGE_TRANSCRIPT_SEGMENTS);
    const { filename } = exported;
    // From a thread a Word file comes back as a plain Uint8Array: Koa sends only a Buffer as bytes.
    const body = typeof exported.body === 'string' ? exported.body : Buffer.from(exported.body.buffer, exported.body.byteOffset, exported.body.byteLength);
    ctx.state.raw = true;
    ctx.attachment(safeFileName(filename, 'transcript'));
    ctx.type = EXPORT_TYPES[query.format];
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  // The caller's voiceprint: only the speaker embedding is stored, never the recording.
  router.get('/voiceprint', requireUser, async (ctx) => {
    ctx.body = await voiceprintStatus(db, currentUser(ctx).id);
  });

  router.put('/voiceprint', requireUser, receiveAudio, async (ctx) => {
    const file = requireFile(ctx, 'file');
    await probeAudio(file.filepath, baseName(file.originalFilename ?? 'voice'));
    const user = currentUser(ctx);
    ctx.body = await enrolVoiceprint(db, models, user.id, file.filepath, path.join(config.dataDir, 'audio', 'voiceprints', `${user.id}-${Date.now()}`));
  });

  router.delete('/voiceprint', requireUser, async (ctx) => {
    ctx.body = await deleteVoiceprint(db, currentUser(ctx).id);
  });

  // The kept audio of the caller's own transcription, seekable (Range); removing it keeps the text.
  router.get('/transcriptions/:id/recording', requireUser, async (ctx) => {
    const transcription = await getTranscription(db, currentUser(ctx).id, parseId(ctx.params.id, 'Transcription'));
    await sendRecording(ctx, db, storage, transcription.id);
  });

  router.delete('/transcriptions/:id/recording', requireUser, async (ctx) => {
    const transcription = await getTranscription(db, currentUser(ctx).id, parseId(ctx.params.id, 'Transcription'));
    ctx.body = { id: transcription.id, has_recording: false, removed: await removeRecording(db, storage, transcription.id) };
  });

  // The deterministic call figures of a speaker-labelled transcription (server/audio/call-metrics.ts).
  router.get('/transcriptions/:id/figures', requireUser, async (ctx) => {
    const transcription = await getTranscription(db, currentUser(ctx).id, parseId(ctx.params.id, 'Transcription'));
    if (!transcription.has_speakers) {
      throw new AppError(400, WorkbenchErrorCode.speakersRequired, `Transcription ${transcription.id} has no speaker labels: call figures need a speaker-labelled transcript (a stereo call transcribed with speakers=true)`);
    }
    ctx.body = await offload('figures', transcription.segments, transcription.segments.length >= LARGE_TRANSCRIPT_SEGMENTS);
  });

  mountModelShelf(router, { db, media, dirs: models, requireAdmin }, speechShelf, ModelName);

  return router;
}
