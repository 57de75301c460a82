// Signed file URLs: a browser's <video>/<img> cannot send the Bearer header, so the file URL carries its own
// short-lived token, an HMAC over (media id, expiry) keyed from the install's JWT secret.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';

/** Long enough to watch a training video with pauses; the preview endpoint hands out a fresh one on demand. */
export const FILE_TOKEN_TTL_SECONDS = 2 * 60 * 60;

// Keyed by the database's client config, which a transaction shares with its root knex: approvedMediaFor(db, ...)
// is called by other domains with only a db (or trx) at hand, and must still sign the URLs it lists.
const keys = new WeakMap<object, Buffer>();

/** Called once per app by mediaRoutes. The key is derived so that file tokens can never pass as JWTs or back. */
export function registerFileSigner(db: Knex, jwtSecret: string): void {
  keys.set(db.client.config, crypto.createHmac('sha256', jwtSecret).update('trainbench media file url v1').digest());
}

function keyFor(db: Db): Buffer {
  const key = keys.get(db.client.config);
  if (!key) throw new Error('media file signer not registered for this database (mediaRoutes not created)');
  return key;
}

const mac = (key: Buffer, mediaId: number, expires: number): string =>
  crypto.createHmac('sha256', key).update(`${mediaId}.${expires}`).digest('base64url');

export interface SignedUrl {
  url: string;
  expiresAt: string;
}

export function signedFileUrl(db: Db, mediaId: number, nowMs = Date.now()): SignedUrl {
  const expires = Math.floor(nowMs / 1000) + FILE_TOKEN_TTL_SECONDS;
  const token = `${expires}.${mac(keyFor(db), mediaId, expires)}`;
  return { url: `/api/media/file/${mediaId}?token=${token}`, expiresAt: new Date(expires * 1000).toISOString() };
}

export type TokenCheck = 'valid' | 'invalid' | 'expired';

export function checkFileToken(db: Db, mediaId: number, token: string, nowMs = Date.now()): TokenCheck {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return 'invalid';
  const expires = Number(match[1]);
  const expected = Buffer.from(mac(keyFor(db), mediaId, expires));
  if (!crypto.timingSafeEqual(expected, Buffer.from(match[2]!))) return 'invalid';
  return expires * 1000 < nowMs ? 'expired' : 'valid';
}
