// One transcription: the routes allowed for it are tried in order (local first), every attempt is logged, and the
// transcription is stored. Cloud routes are a fallback only when the system allows it (audio_cloud_fallback) and
// the request does not forbid it (allow_cloud=false); with no local route enabled at all they are the configured
// way to transcribe, as before.
import type { Db } from '../db/knex.js';
import { AudioErrorCode, type AudioRouteRef, type Transcription, type TranscriptionAttempt } from '../../contract/audio.js';
import { AppError, notFound } from '../http/errors.js';
import { now } from '../db/time.js';
import { recordCall } from '../ai/model-calls.js';
import { readConfigValue } from '../system/config.service.js';
import { audioRouteOrder, routeRef, type AudioRoute } from './audio-route-order.js';
import { transcribeWithWhisperCpp } from './local-whisper.js';
import { transcribeOverHttp } from './openai-transcriber.js';
import { RouteUnavailable, type AudioInput, type RawTranscript } from './transcriber.js';
import { findTranscription, insertTranscription } from './transcriptions.repository.js';
import type { StoredRecording } from './recordings.js';
import { Converter } from 'opencc-js/t2cn';
import { usableSpeakerModels } from './speakers/speaker-models.js';
import type { VoiceOptions } from './speakers/voice-passes.js';
import { voiceprintFor } from './voiceprints.js';

/** A call has two speakers unless the request says otherwise (speaker_count). */
export const DEFAULT_SPEAKER_COUNT = 2;

export const TRANSCRIBE_PURPOSE = 'audio.transcribe';

export interface TranscribeRequest extends AudioInput {
  userId: number;
  jobId: number | null;
  fileSize: number;
  /** false: the request forbids cloud routes. */
  allowCloud: boolean;
  /** Runs `work` holding the machine's local transcription slot (waiting for it in order). */
  holdingLocalSlot<T>(work: () => Promise<T>): Promise<T>;
  /** Told which route is being tried. */
  onRoute(route: AudioRouteRef): void;
  /** Keeps the audio once transcribed, or null when it is not kept. */
  keepRecording?(): Promise<StoredRecording | null>;
  /**
   * Stores the transcription through `insert` (in the caller's transaction, beside the job's own update) and returns
   * its id; throws when the job may no longer store it (cancelled, or taken over by another node). Default: insert.
   */
  store?(insert: (db: Db) => Promise<number>): Promise<number>;
  /** Speakers of a mono call: 1–8, or 0 to find out (default 2). */
  speakerCount?: number;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** What a local route needs to tell speakers apart by voice and to skip silences: models, voiceprint, settings. */
async function voiceOptions(db: Db, input: TranscribeRequest): Promise<VoiceOptions> {
  const models = await usableSpeakerModels(db, input.modelDirs);
  return {
    models,
    speakerCount: input.speakerCount ?? DEFAULT_SPEAKER_COUNT,
    threshold: await readConfigValue<number>(db, 'audio_speaker_threshold'),
    voiceprint: models.embedding ? await voiceprintFor(db, input.userId, models.embedding) : null,
  };
}

const runRoute = (db: Db, route: AudioRoute, input: TranscribeRequest): Promise<RawTranscript> =>
  route.provider === 'local-whisper'
    ? input.holdingLocalSlot(async () => transcribeWithWhisperCpp(route, { ...input, voices: await voiceOptions(db, input) }))
    : transcribeOverHttp(route, input);

const toSimplified = Converter({ from: 't', to: 'cn' });

/** Chinese in Simplified characters unless the system parameter audio_chinese_script says `as_recognized`. */
async function inScript(db: Db, transcript: RawTranscript, language: string): Promise<RawTranscript> {
  if (!/^(zh|yue)/i.test(language) || (await readConfigValue<string>(db, 'audio_chinese_script')) === 'as_recognized') return transcript;
  const segments = transcript.segments.map((s) => ({ ...s, text: toSimplified(s.text) }));
  return { ...transcript, segments, text: toSimplified(transcript.text) };
}

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

/** Why cloud routes may not take this audio, or undefined when they may. */
export type CloudRefusal = { reason: 'system_config' | 'request'; message: string };

/** The routes a transcription may use, in order, and the cloud routes left out by the policy (with why). */
export async function allowedRoutes(db: Db, allowCloud: boolean): Promise<{ routes: AudioRoute[]; all: AudioRoute[]; refused?: CloudRefusal; skipped: AudioRoute[] }> {
  const all = await audioRouteOrder(db);
  const local = all.filter((r) => r.is_local);
  const cloud = all.filter((r) => !r.is_local);
  let refused: CloudRefusal | undefined;
  if (cloud.length && !allowCloud) refused = { reason: 'request', message: 'the request forbids cloud routes (allow_cloud=false)' };
  else if (cloud.length && local.length && !(await readConfigValue<boolean>(db, 'audio_cloud_fallback'))) {
    refused = { reason: 'system_config', message: 'falling back to a cloud route is off (system parameter audio_cloud_fallback)' };
  }
  return { routes: refused ? local : all, all, refused, skipped: refused ? cloud : [] };
}

const LOST_SPEAKERS_ZH = (route: string) => `路由「${route}」未返回说话人标签，未进行说话人分离，需要说话人的后续步骤将无法执行。`;

/** What the answer lacks compared with what was asked, in the flags of spec 4.11 and a short Chinese note. */
export function degradation(routes: AudioRoute[], answered: AudioRoute, speakersRequested: boolean, transcript: RawTranscript) {
  const hasSpeakers = transcript.segments.some((s) => s.speaker !== undefined);
  const leftLocal = !answered.is_local && routes.some((r) => r.is_local);
  const lostSpeakers = speakersRequested && !hasSpeakers;
  const notes = [
    ...(leftLocal ? [`本地语音识别路由不可用，音频已离开本机，转交云端路由「${answered.name}」处理。`] : []),
    ...(lostSpeakers ? [transcript.speakersLost_zh ?? LOST_SPEAKERS_ZH(answered.name)] : []),
  ];
  return { has_speakers: hasSpeakers, left_local: leftLocal, capability_degraded: leftLocal || lostSpeakers, capability_zh: notes.join('') };
}

/**
 * Errors: 500 `no_model_route` when no allowed audio route could run (none configured, each one unavailable here,
 * or only cloud routes the policy refuses); 500 `model_route_failed` when every route that ran failed. Both carry
 * the attempts in details, and `cloud_refused` with the routes left out when the policy kept the audio local.
 */
export async function transcribe(db: Db, req: TranscribeRequest): Promise<Transcription> {
  const { routes, all, refused, skipped } = await allowedRoutes(db, req.allowCloud);
  const attempts: TranscriptionAttempt[] = [];
  let anyRan = false;
  for (const [index, route] of routes.entries()) {
    const startedAt = Date.now();
    let transcript: RawTranscript;
    req.onRoute(routeRef(route));
    try {
      transcript = await runRoute(db, route, req);
      transcript = await inScript(db, transcript, transcript.language || req.language || '');
    } catch (err) {
      // Bad audio is the request's fault, not the route's: no other route would do better.
      if (err instanceof AppError && err.status < 500) throw err;
      await logAttempt(db, route, req, index + 1, startedAt, '', err);
      if (req.signal.aborted) throw err;
      anyRan ||= !(err instanceof RouteUnavailable);
      attempts.push({ route: routeRef(route), ok: false, error: messageOf(err) });
      continue;
    }
    await logAttempt(db, route, req, index + 1, startedAt, transcript.text);
    attempts.push({ route: routeRef(route), ok: true });
    const record: Omit<Transcription, 'id' | 'has_recording' | 'revision' | 'latest_revision' | 'speaker_names' | 'revised_at'> = {
      filename: req.filename,
      file_size: req.fileSize,
      audio: req.audio,
      text: transcript.text,
      language: transcript.language || req.language || '',
      segments: transcript.segments,
      speakers_requested: req.speakersRequested,
      route: routeRef(route),
      ...degradation(all, route, req.speakersRequested, transcript),
      attempts,
      job_id: req.jobId,
      created_at: now(),
      speaker_method: transcript.speaker_method ?? null,
      rep_match: transcript.rep_match ?? null,
      speech_seconds: transcript.speech_seconds ?? null,
    };
    const kept = (await req.keepRecording?.()) ?? null;
    const row = { ...record, user_id: req.userId, recording: kept?.recording ?? null, recording_mime: kept?.recording_mime ?? null };
    const id = req.store ? await req.store((trx) => insertTranscription(trx, row)) : await insertTranscription(db, row);
    return { id, ...record, has_recording: kept !== null, revision: 1, latest_revision: 1, speaker_names: {}, revised_at: record.created_at };
  }
  const summary = attempts.map((a) => `"${a.route.name}": ${a.error}`).join('; ');
  const refusal = refused && { reason: refused.reason, message: refused.message, routes: skipped.map(routeRef) };
  // route_kind tells the app that the missing route is a speech one (the code is shared with chat routes).
  const details = { route_kind: 'audio', attempts, ...(refusal && { cloud_refused: refusal }) };
  const cloudNote = refused ? ` Cloud routes were not tried: ${refused.message}.` : '';
  if (!anyRan) {
    throw new AppError(500, AudioErrorCode.noModelRoute, `No usable audio route${summary ? `: ${summary}` : routes.length ? '' : ': add an enabled audio route'}.${cloudNote}`, details);
  }
  throw new AppError(500, AudioErrorCode.modelRouteFailed, `Speech-to-text failed on every audio route: ${summary}.${cloudNote}`, details);
}

/** The caller's transcription at a revision (the latest by default); 404 for another user's, or a revision that does not exist. */
export async function getTranscription(db: Db, userId: number, id: number, revision?: number): Promise<Transcription> {
  const found = await findTranscription(db, userId, id, revision);
  if (!found) throw notFound(revision === undefined ? 'Transcription' : `Revision ${revision} of transcription ${id}`);
  return found;
}
