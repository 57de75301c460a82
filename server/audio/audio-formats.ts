import path from 'node:path';
import { oneLine } from '../http/plain-text.js';

/** Formats OpenAI-compatible servers take as they are (the rest is sent as 16 kHz WAV), with the type and extension sent. */
const CLOUD_FORMATS: Record<string, { mime: string; ext: string }> = {
  mp3: { mime: 'audio/mpeg', ext: 'mp3' },
  wav: { mime: 'audio/wav', ext: 'wav' },
  m4a: { mime: 'audio/mp4', ext: 'm4a' },
  ogg: { mime: 'audio/ogg', ext: 'ogg' },
  opus: { mime: 'audio/ogg', ext: 'ogg' },
  flac: { mime: 'audio/flac', ext: 'flac' },
  webm: { mime: 'audio/webm', ext: 'webm' },
};

/** The client's file name without any folder part (browsers on Windows may send one) nor invisible characters (plain-text.ts); a name that is only dots is no name. */
export const baseName = (filename: string): string => {
  const name = oneLine(path.posix.basename(filename.replace(/\\/g, '/'))).trim().slice(-255);
  return /^\.*$/.test(name) ? 'audio' : name;
};

/** How a detected format is sent to a cloud route; undefined when it must be converted to WAV first. */
export const cloudFormat = (format: string) => CLOUD_FORMATS[format];

/** The client's name with the extension of the format actually sent (servers go by the extension). */
export function nameForUpload(filename: string, ext: string): string {
  const stem = filename.slice(0, filename.length - path.extname(filename).length) || 'audio';
  return `${stem}.${ext}`;
}
