import path from 'node:path';
import { AudioFormats, type AudioFormat } from '../../contract/audio.js';

const MIME_TYPES: Record<AudioFormat, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
};

/** The client's file name without any folder part (browsers on Windows may send one). */
export const baseName = (filename: string): string => path.posix.basename(filename.replace(/\\/g, '/')).slice(-255);

/** The accepted format named by the file's extension, or undefined. */
export function audioFormatOf(filename: string): AudioFormat | undefined {
  const ext = path.extname(filename).slice(1).toLowerCase();
  return (AudioFormats as readonly string[]).includes(ext) ? (ext as AudioFormat) : undefined;
}

export const mimeTypeOf = (format: AudioFormat): string => MIME_TYPES[format];
