// One transcription against an OpenAI-compatible server: POST {base_url}/audio/transcriptions, multipart,
// response_format=verbose_json. The file is streamed from disk, never read into memory: the upload as it came when
// the server takes its format, else a 16 kHz WAV decoded from it.
import fs from 'node:fs';
import path from 'node:path';
import { UpstreamError, describe, errorDetail } from '../ai/openai-stream.js';
import { cloudFormat, nameForUpload } from './audio-formats.js';
import type { AudioRoute } from './audio-route-order.js';
import { decodeAudio } from './ffmpeg.js';
import type { AudioInput, RawTranscript } from './transcriber.js';
import { parseVerboseJson } from './verbose-json.js';

/** The server transcribes the whole file before its headers: the default wait is long. */
export const DEFAULT_RESPONSE_TIMEOUT_MS = 600_000;
/** Once the headers are in, the JSON body must arrive within this. */
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;

const transcriptionsUrl = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;

async function fileToSend(input: AudioInput): Promise<{ path: string; name: string; type: string }> {
  const format = cloudFormat(input.audio.format);
  if (format) return { path: input.filePath, name: nameForUpload(input.filename, format.ext), type: format.mime };
  const wav = path.join(input.workDir, 'cloud.wav');
  await fs.promises.access(wav).catch(() => decodeAudio(input.filePath, wav, { channels: 1, signal: input.signal }));
  return { path: wav, name: nameForUpload(input.filename, 'wav'), type: 'audio/wav' };
}

async function transcriptionForm(route: AudioRoute, input: AudioInput): Promise<FormData> {
  const file = await fileToSend(input);
  const form = new FormData();
  form.append('file', await fs.openAsBlob(file.path, { type: file.type }), file.name);
  form.append('model', route.model);
  form.append('response_format', 'verbose_json');
  if (input.language) form.append('language', input.language);
  return form;
}

/** Timeouts from the route: connect_timeout_ms until the response headers, idle_timeout_ms for the body. */
export async function transcribeOverHttp(route: AudioRoute, input: AudioInput): Promise<RawTranscript> {
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(input.signal.reason);
  input.signal.addEventListener('abort', forwardAbort, { once: true });
  const expireIn = (ms: number, what: string) => setTimeout(() => controller.abort(new UpstreamError(`${what} within ${ms} ms`)), ms);
  let timer = expireIn(route.connect_timeout_ms ?? DEFAULT_RESPONSE_TIMEOUT_MS, 'no response');
  try {
    input.onProgress(0, 'uploading');
    const res = await fetch(transcriptionsUrl(route.base_url), {
      method: 'POST',
      headers: { accept: 'application/json', ...(route.api_key && { authorization: `Bearer ${route.api_key}` }) },
      body: await transcriptionForm(route, input),
      signal: controller.signal,
    });
    clearTimeout(timer);
    timer = expireIn(route.idle_timeout_ms ?? DEFAULT_BODY_TIMEOUT_MS, 'no complete answer');
    if (!res.ok) throw new UpstreamError(`HTTP ${res.status}${await errorDetail(res)}`);
    const body = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new UpstreamError('the answer is not JSON');
    }
    return parseVerboseJson(parsed);
  } catch (err) {
    if (input.signal.aborted) throw input.signal.reason;
    if (controller.signal.aborted) throw controller.signal.reason;
    throw err instanceof UpstreamError ? err : new UpstreamError(describe(err));
  } finally {
    clearTimeout(timer);
    input.signal.removeEventListener('abort', forwardAbort);
  }
}
