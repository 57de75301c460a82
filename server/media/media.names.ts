import mime from 'mime-types';
import type { MediaKind } from '../../contract/media.js';
import { oneLine } from '../http/plain-text.js';

const MAX_NAME_LENGTH = 255;

/**
 * The client's file name as data: only its last path segment, without control characters (NUL included, which
 * PostgreSQL text cannot hold) nor zero-width or direction-changing ones (plain-text.ts), at most 255 characters with the extension kept. Never used to build a path.
 */
export function displayName(raw: string | null | undefined): string {
  const lastSegment = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = oneLine(lastSegment).trim();
  const name = /^\.*$/.test(cleaned) ? 'file' : cleaned;
  if (name.length <= MAX_NAME_LENGTH) return name;
  const ext = extensionOf(name);
  const tail = ext ? `.${ext}` : '';
  return name.slice(0, MAX_NAME_LENGTH - tail.length) + tail;
}

/** Lower-case extension without the dot ('' when absent or not a plain short word). */
export function extensionOf(name: string): string {
  const match = /\.([A-Za-z0-9]{1,16})$/.exec(name);
  return match ? match[1]!.toLowerCase() : '';
}

export const mimeTypeOf = (ext: string): string => (ext && mime.lookup(ext)) || 'application/octet-stream';

const DOCUMENT_EXTS = new Set(['doc', 'docx', 'ppt', 'pptx', 'xls', 'xlsx', 'txt', 'md', 'markdown', 'html', 'htm', 'csv', 'rtf']);

export function kindOf(ext: string, mimeType: string): MediaKind {
  if (ext === 'pdf') return 'pdf';
  if (DOCUMENT_EXTS.has(ext)) return 'document';
  const top = mimeType.split('/')[0];
  return top === 'video' || top === 'audio' || top === 'image' ? top : 'other';
}
