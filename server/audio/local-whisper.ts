// A `local-whisper` route: whisper.cpp in this process through the optional `whisper-node` package, with the
// route's `model` as the path of a ggml model file. When either is missing the route is unavailable.
import fs from 'node:fs/promises';
import type { TranscriptSegment } from '../../contract/audio.js';
import type { AudioRoute } from './audio-route-order.js';
import { RouteUnavailable, type AudioInput, type RawTranscript } from './transcriber.js';

interface WhisperLine {
  start: string;
  end: string;
  speech: string;
}
type Whisper = (filePath: string, options: { modelPath: string; whisperOptions?: { language?: string } }) => Promise<WhisperLine[] | undefined>;

// A variable, so that neither TypeScript nor a bundler insists on a package that is an optional extra.
const WHISPER_PACKAGE = 'whisper-node';

async function loadWhisper(): Promise<Whisper | undefined> {
  try {
    const mod = (await import(WHISPER_PACKAGE)) as { whisper?: unknown; default?: unknown };
    const fallback = mod.default as { whisper?: unknown } | undefined;
    const found = [mod.whisper, fallback?.whisper, mod.default].find((f) => typeof f === 'function');
    return found as Whisper | undefined;
  } catch {
    return undefined;
  }
}

const isFile = (p: string) => fs.stat(p).then((s) => s.isFile(), () => false);

/** whisper-node reports "HH:MM:SS.mmm". */
function secondsOf(stamp: string): number {
  const value = stamp.split(':').reduce((total, part) => total * 60 + Number(part), 0);
  return Number.isFinite(value) ? value : 0;
}

/** Why the route cannot run here, or the loaded whisper function. */
async function prepare(route: AudioRoute, input: AudioInput): Promise<Whisper> {
  const [whisper, modelFound] = await Promise.all([loadWhisper(), isFile(route.model)]);
  const reasons = [
    ...(whisper ? [] : ['the whisper-node package is not installed']),
    ...(modelFound ? [] : [`model file ${route.model} not found`]),
    // whisper.cpp reads 16 kHz WAV only; other formats go to the next route rather than to a converter we lack.
    ...(input.format === 'wav' ? [] : [`whisper.cpp reads WAV files only, not .${input.format}`]),
  ];
  if (reasons.length || !whisper) throw new RouteUnavailable(`unavailable: ${reasons.join('; ')}`);
  return whisper;
}

export async function transcribeWithWhisperCpp(route: AudioRoute, input: AudioInput): Promise<RawTranscript> {
  const whisper = await prepare(route, input);
  // whisper-node changes the working directory to run whisper.cpp; the server's own must survive it.
  const cwd = process.cwd();
  let lines: WhisperLine[] | undefined;
  try {
    lines = await whisper(input.filePath, { modelPath: route.model, whisperOptions: { ...(input.language && { language: input.language }) } });
  } finally {
    process.chdir(cwd);
  }
  if (!Array.isArray(lines)) throw new Error('whisper.cpp produced no transcript');
  const segments: TranscriptSegment[] = lines.map((l) => ({ start: secondsOf(l.start), end: secondsOf(l.end), text: String(l.speech ?? '').trim() }));
  return { text: segments.map((s) => s.text).filter(Boolean).join(' '), language: input.language ?? '', segments };
}
