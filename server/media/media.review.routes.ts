import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Db } from '../db/knex.js';
import { MediaErrorCode, type MediaAuditPage } from '../../contract/media.js';
import { currentUser } from '../auth/guards.js';
import { AppError, unauthorized } from '../http/errors.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { listMedia } from './media.repository.js';
import { approvedMediaRow, auditMedia, getVisibleMedia, mediaPreview, mediaStatus, reviewMediaRow, reviewPreview } from './media.service.js';
import { checkFileToken, checkReviewToken, type TokenCheck } from './media.signing.js';
import type { MediaRow } from './media.repository.js';
import { objectSource, sendFile } from '../http/file-response.js';
import { keys } from '../storage/index.js';
import type { MediaStore } from './media.store.js';
import { notFound } from '../http/errors.js';
import { AuditBody, AuditListQuery } from './media.schema.js';

export interface ReviewDeps {
  db: Db;
  media: MediaStore;
  requireUser: Middleware;
  requireAdmin: Middleware[];
  /** Called after an approve that needs a text extraction. */
  onApproved(mediaId: number): void;
}

/** The media id once the signed token in the query is valid for it (401 without one, 403 when bad or expired). */
function checkedToken(ctx: Context, id: number, check: (token: string) => TokenCheck, issuer: string): number {
  const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
  if (!token) throw unauthorized(`A signed token is required: take preview_url from ${issuer}`);
  const result = check(token);
  if (result !== 'valid') throw new AppError(403, MediaErrorCode.invalidFileToken, result === 'expired' ? 'This file link has expired' : 'This file link is not valid');
  return id;
}

/** Audit, status, preview, the signed file and the record itself. `/:id` is last: it would match the other paths. */
export function reviewRoutes({ db, media: store, requireUser, requireAdmin, onApproved }: ReviewDeps): Router {
  const media = new Router({ prefix: '/media' });

  media.get('/audit-list', ...requireAdmin, async (ctx) => {
    const { status, page, size } = parseQuery(ctx, AuditListQuery);
    const body: MediaAuditPage = await listMedia(db, { status: status === 'all' ? undefined : status, page, size });
    ctx.body = body;
  });

  media.post('/audit/:id', ...requireAdmin, async (ctx) => {
    const id = parseId(ctx.params.id, 'Media');
    const result = await auditMedia(db, id, currentUser(ctx), parseBody(ctx, AuditBody));
    if (result.extract) onApproved(id);
    ctx.body = result.media;
  });

  // The reviewer opens a media in any status (pending, before deciding) through a link of its own.
  media.get('/audit/:id/preview', ...requireAdmin, async (ctx) => {
    ctx.body = await reviewPreview(db, parseId(ctx.params.id, 'Media'));
  });

  media.get('/audit/:id/file', async (ctx) => {
    const id = parseId(ctx.params.id, 'Media');
    const row = await reviewMediaRow(db, checkedToken(ctx, id, (token) => checkReviewToken(db, id, token), 'GET /api/media/audit/{id}/preview'));
    await sendMediaFile(ctx, row);
  });

  media.get('/preview/:id', requireUser, async (ctx) => {
    ctx.body = await mediaPreview(db, parseId(ctx.params.id, 'Media'));
  });

  media.get('/status/:id', requireUser, async (ctx) => {
    ctx.body = await mediaStatus(db, parseId(ctx.params.id, 'Media'), currentUser(ctx));
  });

  // Opened by <video>/<img> without headers: the signed token in the query is the authorization.
  media.get('/file/:id', async (ctx) => {
    const id = parseId(ctx.params.id, 'Media');
    const row = await approvedMediaRow(db, checkedToken(ctx, id, (token) => checkFileToken(db, id, token), 'GET /api/media/preview/{id}'));
    await sendMediaFile(ctx, row);
  });

  const sendMediaFile = async (ctx: Context, row: MediaRow) => {
    const source = await objectSource(store.storage, keys.media(row.storage_key), () => notFound('Media file'));
    await sendFile(ctx, source, {
      filename: row.filename,
      mimeType: row.mime_type,
      etag: row.storage_key,
      // Once computed (media.hash.ts), a client can check what it downloaded.
      headers: row.sha256 ? { 'X-Content-SHA256': row.sha256 } : undefined,
      rangeErrorCode: MediaErrorCode.rangeNotSatisfiable,
    });
  };

  media.get('/:id', requireUser, async (ctx) => {
    ctx.body = await getVisibleMedia(db, parseId(ctx.params.id, 'Media'), currentUser(ctx));
  });

  return media;
}
