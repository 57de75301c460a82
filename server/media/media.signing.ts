// Signed file URLs: a browser's <video>/<img> cannot send the Bearer header, so the file URL carries its own
// short-lived token (http/url-signer.ts) over the media id.
import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import { UrlSigner, type TokenCheck } from '../http/url-signer.js';

export type { TokenCheck };

/** Long enough to watch a training video with pauses; the preview endpoint hands out a fresh one on demand. */
export const FILE_TOKEN_TTL_SECONDS = 2 * 60 * 60;

// Keyed by the database's client config, which a transaction shares with its root knex: approvedMediaFor(db, ...)
// is called by other domains with only a db (or trx) at hand, and must still sign the URLs it lists.
const signers = new WeakMap<object, UrlSigner>();

/** Called once per app by mediaRoutes. */
export function registerFileSigner(db: Knex, secret: string): void {
  signers.set(db.client.config, new UrlSigner(secret, 'trainbench media file url v1', FILE_TOKEN_TTL_SECONDS));
}

function signerFor(db: Db): UrlSigner {
  const signer = signers.get(db.client.config);
  if (!signer) throw new Error('media file signer not registered for this database (mediaRoutes not created)');
  return signer;
}

export interface SignedUrl {
  url: string;
  expiresAt: string;
}

export function signedFileUrl(db: Db, mediaId: number, nowMs = Date.now()): SignedUrl {
  const { token, expiresAt } = signerFor(db).sign(String(mediaId), nowMs);
  return { url: `/api/media/file/${mediaId}?token=${token}`, expiresAt };
}

export const checkFileToken = (db: Db, mediaId: number, token: string, nowMs = Date.now()): TokenCheck => signerFor(db).check(String(mediaId), token, nowMs);

// A reviewer's link to a media in any status: signed over another subject, so an ordinary file token (handed to
// anyone for approved media) never opens a pending or rejected file.
const reviewSubject = (mediaId: number) => `review:${mediaId}`;

export function signedReviewUrl(db: Db, mediaId: number, nowMs = Date.now()): SignedUrl {
  const { token, expiresAt } = signerFor(db).sign(reviewSubject(mediaId), nowMs);
  return { url: `/api/media/audit/${mediaId}/file?token=${token}`, expiresAt };
}

export const checkReviewToken = (db: Db, mediaId: number, token: string, nowMs = Date.now()): TokenCheck => signerFor(db).check(reviewSubject(mediaId), token, nowMs);
