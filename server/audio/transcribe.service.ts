// Tries the enabled audio routes in order (local first), logs every attempt and stores the transcription.
import type { Db } from '../db/knex.js';
import { AudioErrorCode, type Transcription, type TranscriptionAttempt } from '../../contract/audio.js';
import { AppError, notFound } from '../http/errors.js';
import { now } from '../db/time.js';
import { recordCall } from '../ai/model-calls.js';
import { audioRouteOrder, routeRef, type AudioRoute } from './audio-route-order.js';
import { transcribeWithWhisperCpp } from './local-whisper.js';
import { transcribeOverHttp } from './openai-transcriber.js';
import { RouteUnavailable, type AudioInput, type RawTranscript } from './transcriber.js';
import { findTranscription, insertTranscription } from './transcriptions.repository.js';

export const TRANSCRIBE_PURPOSE = 'audio.transcribe';

export interface TranscribeRequest extends AudioInput {
  userId: number;
  fileSize: number;
  speakersRequested: boolean;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

const runRoute = (route: AudioRoute, input: AudioInput): Promise<RawTranscript> =>
  route.provider === 'local-whisper' ? transcribeWithWhisperCpp(route, input) : transcribeOverHttp(route, input);

async function logAttempt(db: Db, route: AudioRoute, req: TranscribeRequest, attempt: number, startedAt: number, reply: string, error?: unknown) {
  await recordCall(db, {
    route_id: route.id,
    route_name: route.name,
    model: route.model,
    user_id: req.userId,
    purpose: TRANSCRIBE_PURPOSE,
    status: error === undefined ? 'ok' : req.signal.aborted ? 'aborted' : 'failed',
    error: error === undefined ? '' : messageOf(error),
    attempt,
    latency_ms: Date.now() - startedAt,
    first_token_ms: null,
    prompt_chars: 0,
    reply_chars: reply.length,
    prompt_tokens: null,
    completion_tokens: null,
  });
}

/** What the answer lacks compared with what was asked, in the flags of spec 4.11 and a short Chinese note. */
export function degradation(routes: AudioRoute[], answered: AudioRoute, speakersRequested: boolean, hasSpeakers: boolean) {
  const leftLocal = !answered.is_local && routes.some((r) => r.is_local);
  const lostSpeakers = speakersRequested && !hasSpeakers;
  const notes = [
    ...(leftLocal ? [`本地语音识别路由不可用，音频已转交云端路由「${answered.name}」处理。`] : []),
    ...(lostSpeakers ? [`路由「${answered.name}」未返回说话人标签，本次转写不区分说话人，需要说话人的后续步骤将无法执行。`] : []),
  ];
  return { left_local: leftLocal, capability_degraded: leftLocal || lostSpeakers, capability_zh: notes.join('') };
}

/**
 * Errors: 500 `no_model_route` when no enabled audio route could run (none configured, or each one unavailable
 * here); 500 `model_route_failed` when every route that ran failed. Both carry the attempts in details.
 */
export async function transcribe(db: Db, req: TranscribeRequest): Promise<Transcription> {
  const routes = await audioRouteOrder(db);
  const attempts: TranscriptionAttempt[] = [];
  let anyRan = false;
  for (const [index, route] of routes.entries()) {
    const startedAt = Date.now();
    let transcript: RawTranscript;
    try {
      transcript = await runRoute(route, req);
    } catch (err) {
      await logAttempt(db, route, req, index + 1, startedAt, '', err);
      if (req.signal.aborted) throw err;
      anyRan ||= !(err instanceof RouteUnavailable);
      attempts.push({ route: routeRef(route), ok: false, error: messageOf(err) });
      continue;
    }
    await logAttempt(db, route, req, index + 1, startedAt, transcript.text);
    attempts.push({ route: routeRef(route), ok: true });
    const hasSpeakers = transcript.segments.some((s) => s.speaker !== undefined);
    const record: Omit<Transcription, 'id'> = {
      filename: req.filename,
      file_size: req.fileSize,
      text: transcript.text,
      language: transcript.language || req.language || '',
      segments: transcript.segments,
      speakers_requested: req.speakersRequested,
      has_speakers: hasSpeakers,
      route: routeRef(route),
      ...degradation(routes, route, req.speakersRequested, hasSpeakers),
      attempts,
      created_at: now(),
    };
    const id = await insertTranscription(db, { ...record, user_id: req.userId });
    return { id, ...record };
  }
  const summary = attempts.map((a) => `"${a.route.name}": ${a.error}`).join('; ');
  if (!anyRan) {
    throw new AppError(500, AudioErrorCode.noModelRoute, `No usable audio route${summary ? `: ${summary}` : ': add an enabled audio route'}`, { attempts });
  }
  throw new AppError(500, AudioErrorCode.modelRouteFailed, `Speech-to-text failed on every audio route: ${summary}`, { attempts });
}

export async function getTranscription(db: Db, userId: number, id: number): Promise<Transcription> {
  const found = await findTranscription(db, userId, id);
  if (!found) throw notFound('Transcription');
  return found;
}
