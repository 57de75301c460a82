// ffprobe and ffmpeg: the system's own when it has a maintained build (ffmpeg ≥ 5 with its ffprobe beside it, as
// Debian and the Linux servers have), else the ones of the @ffmpeg-installer / @ffprobe-installer packages, whose
// platform packages ship (old, 2018) binaries in their tarballs (nothing is downloaded at install or run time).
// ffmpeg parses every untrusted upload, so the maintained one is preferred. The format of an upload is read from its
// content by ffprobe, never from its name; ffmpeg decodes it to the 16 kHz 16-bit PCM whisper.cpp reads.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { AudioErrorCode, type AudioInfo, type DecoderInfo } from '../../contract/audio.js';
import { AppError } from '../http/errors.js';
import { ffmpegProgram } from '../runtime-paths.js';
import { readFileHead } from '../file-head.js';

/** whisper.cpp's sample rate. */
export const WHISPER_SAMPLE_RATE = 16_000;

type Binaries = { ffmpeg?: string; ffprobe?: string; decoder: DecoderInfo | null };
let binaries: Promise<Binaries> | undefined;

/** The lowest major version of a system ffmpeg that is used instead of the bundled one. */
export const SYSTEM_FFMPEG_MIN_MAJOR = 5;

/** "5.1.9-0+deb12u1" from `ffmpeg -version`'s first line; '' when it cannot be run. */
async function versionOf(program: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(program, ['-version'], { timeout: 10_000 });
    return /version\s+(\S+)/.exec(stdout.split('\n')[0] ?? '')?.[1] ?? '';
  } catch {
    return '';
  }
}

/** A system ffmpeg ≥ 5 with its ffprobe in the same folder, found on PATH (or /usr/bin, /usr/local/bin). */
async function systemFfmpeg(): Promise<{ ffmpeg: string; ffprobe: string; version: string } | undefined> {
  const exe = process.platform === 'win32' ? '.exe' : '';
  const dirs = [...new Set([...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin', '/usr/local/bin'])];
  for (const dir of dirs) {
    const ffmpeg = path.join(dir, `ffmpeg${exe}`);
    const ffprobe = path.join(dir, `ffprobe${exe}`);
    if (!existsSync(ffmpeg) || !existsSync(ffprobe)) continue;
    const version = await versionOf(ffmpeg);
    const major = Number(/^n?(\d+)\./.exec(version)?.[1] ?? NaN);
    if (major >= SYSTEM_FFMPEG_MIN_MAJOR) return { ffmpeg, ffprobe, version };
  }
  return undefined;
}

/** The ffmpeg and ffprobe that decode uploads, found once per process (off the event loop: `-version` is a child). */
export function ffmpegBinaries(): Promise<Binaries> {
  return (binaries ??= findBinaries());
}

async function findBinaries(): Promise<Binaries> {
  const system = process.env.TRAINBENCH_FFMPEG === 'bundled' ? undefined : await systemFfmpeg();
  if (system) return { ffmpeg: system.ffmpeg, ffprobe: system.ffprobe, decoder: { source: 'system', path: system.ffmpeg, version: system.version } };
  // In the packaged app the binaries are unpacked next to app.asar (electron-builder.yml, asarUnpack).
  const ffmpeg = ffmpegProgram('ffmpeg');
  return { ffmpeg, ffprobe: ffmpegProgram('ffprobe'), decoder: ffmpeg ? { source: 'bundled', path: ffmpeg, version: await versionOf(ffmpeg) } : null };
}

/** The ffmpeg build that decodes uploads here (path and version); null when there is none. */
export const decoderInfo = async (): Promise<DecoderInfo | null> => (await ffmpegBinaries()).decoder;

const isFile = (p: string) => fs.stat(p).then((s) => s.isFile(), () => false);

/** What is missing to decode audio here, in words; [] when ffmpeg and ffprobe are both present. */
export async function missingDecoders(): Promise<string[]> {
  const { ffmpeg, ffprobe } = await ffmpegBinaries();
  const [hasFfmpeg, hasFfprobe] = await Promise.all([ffmpeg ? isFile(ffmpeg) : false, ffprobe ? isFile(ffprobe) : false]);
  return [
    ...(hasFfmpeg ? [] : ['ffmpeg is missing (the @ffmpeg-installer/ffmpeg package has no binary for this platform)']),
    ...(hasFfprobe ? [] : ['ffprobe is missing (the @ffprobe-installer/ffprobe package has no binary for this platform)']),
  ];
}

/** First bytes of the containers we take for audio: a failure to read one of these is broken audio, not a wrong file. */
const AUDIO_MAGIC: [offset: number, bytes: string][] = [
  [0, 'ID3'],
  [0, 'RIFF'],
  [0, 'OggS'],
  [0, 'fLaC'],
  [0, '#!AMR'],
  [0, '\x1aE\xdf\xa3'], // EBML: webm / matroska
  [4, 'ftyp'], // mp4 / m4a / 3gp
  [0, 'FORM'], // aiff
];

async function looksLikeAudio(file: string): Promise<boolean> {
  const bytes = await readFileHead(file, 12);
  if (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0) return true; // MPEG audio / ADTS frame sync
  return AUDIO_MAGIC.some(([offset, magic]) => bytes.subarray(offset, offset + magic.length).toString('latin1') === magic);
}

const unsupported = (message: string) => new AppError(400, AudioErrorCode.unsupportedAudio, message);
const invalid = (message: string) => new AppError(400, AudioErrorCode.invalidAudio, message);

/** ffprobe's names of a container → the short name we report (the first name for anything else). */
function formatName(formatName: string, codec: string): string {
  const names = formatName.split(',');
  if (names.includes('mp4') || names.includes('m4a') || names.includes('mov')) return 'm4a';
  if (names.includes('webm') || names.includes('matroska')) return 'webm';
  if (names[0] === 'ogg') return codec === 'opus' ? 'opus' : 'ogg';
  return names[0]!;
}

interface ProbeJson {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; codec_name?: string; channels?: number; sample_rate?: string; duration?: string }[];
}

const lastLine = (text: string) => text.trim().split('\n').filter(Boolean).at(-1)?.replace(/^.*?: /, '') ?? '';

/**
 * What the file holds, from its content. 400 `invalid_audio` for an empty file, or a file that starts like audio but
 * cannot be read (truncated, damaged); 400 `unsupported_audio` for anything that is not audio.
 */
export async function probeAudio(file: string, displayName: string): Promise<AudioInfo> {
  const { size } = await fs.stat(file);
  if (size === 0) throw invalid(`"${displayName}" is empty (0 bytes)`);
  const { ffprobe } = await ffmpegBinaries();
  if (!ffprobe) throw new AppError(500, 'internal_error', 'ffprobe is missing');
  let parsed: ProbeJson;
  try {
    const { stdout } = await promisify(execFile)(ffprobe, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], { maxBuffer: 4 * 1024 * 1024, timeout: 60_000 });
    parsed = JSON.parse(stdout) as ProbeJson;
  } catch (err) {
    const why = lastLine((err as { stderr?: string }).stderr ?? '') || 'unreadable';
    if (await looksLikeAudio(file)) throw invalid(`"${displayName}" looks like audio but cannot be read (${why}): is it truncated or damaged?`);
    throw unsupported(`"${displayName}" is not an audio file ffmpeg can read`);
  }
  const stream = parsed.streams?.find((s) => s.codec_type === 'audio');
  if (!stream) throw unsupported(`"${displayName}" holds no audio (detected: ${parsed.format?.format_name ?? 'unknown'})`);
  const duration = Number(stream.duration ?? parsed.format?.duration ?? NaN);
  const codec = stream.codec_name ?? 'unknown';
  return {
    format: formatName(parsed.format?.format_name ?? 'unknown', codec),
    codec,
    channels: stream.channels ?? 0,
    sample_rate: Number(stream.sample_rate ?? 0),
    duration: Number.isFinite(duration) ? Math.round(duration * 1000) / 1000 : 0,
  };
}

export interface DecodeOptions {
  /** 1: a mono mix (a WAV file); 2: both channels, interleaved raw s16le (for the per-channel analysis). */
  channels: 1 | 2;
  signal: AbortSignal;
}

/**
 * Decodes to 16 kHz signed 16-bit PCM: a WAV file for mono, raw interleaved samples for two channels. 400
 * `invalid_audio` when ffmpeg fails or yields no sample (a file too damaged to decode).
 */
export async function decodeAudio(source: string, target: string, { channels, signal }: DecodeOptions): Promise<void> {
  const format = channels === 1 ? ['-f', 'wav'] : ['-f', 's16le'];
  const stderr = await runFfmpeg(['-i', source, '-vn', '-map_metadata', '-1', '-ac', String(channels), '-ar', String(WHISPER_SAMPLE_RATE), '-c:a', 'pcm_s16le', ...format, target], signal);
  const { size } = await fs.stat(target).catch(() => ({ size: 0 }));
  const header = channels === 1 ? 44 : 0;
  if (size <= header) throw invalid(`The audio holds no samples${stderr ? ` (${lastLine(stderr)})` : ''}`);
}

/** Runs ffmpeg quietly with `args` (after its common options); resolves with the tail of its stderr, 400 `invalid_audio` on failure. */
async function runFfmpeg(args: string[], signal?: AbortSignal): Promise<string> {
  const { ffmpeg } = await ffmpegBinaries();
  if (!ffmpeg) throw new AppError(500, 'internal_error', 'ffmpeg is missing');
  return new Promise<string>((resolve, reject) => {
    const child = spawn(ffmpeg, ['-nostdin', '-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'], signal });
    let text = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text = (text + chunk).slice(-4000)));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(text) : reject(invalid(`The audio could not be decoded: ${lastLine(text) || `ffmpeg exited with ${code}`}`))));
  });
}

/** Encodes the audio as Ogg/Opus at a speech bit rate, channels kept: for recordings in a format browsers do not play. */
export async function encodeForPlayback(source: string, target: string, signal?: AbortSignal): Promise<void> {
  await runFfmpeg(['-i', source, '-vn', '-map_metadata', '-1', '-c:a', 'libopus', '-b:a', '32k', '-f', 'ogg', target], signal);
}

/** A 16 kHz 16-bit mono WAV header for `dataBytes` bytes of samples. */
export function wavHeader(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(WHISPER_SAMPLE_RATE, 24);
  header.writeUInt32LE(WHISPER_SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}
