// The admin endpoints of one model shelf, mounted by the speech (/api/audio/models) and chat (/api/ai/models)
// domains: list, resumable upload (open + complete; chunks go through the media chunk endpoints), verify, remove.
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import type { Db } from '../db/knex.js';
import { currentUser } from '../auth/guards.js';
import { notFound } from '../http/errors.js';
import { parseBody, parseWith } from '../http/validate.js';
import type { MediaStore } from '../media/media.store.js';
import { UploadId } from '../media/media.schema.js';
import { modelUploadInit } from './audio.schema.js';
import { completeModelUpload, listShelf, openModelUpload, removeModel, verifyModel, type ModelShelf } from './model-install.js';
import type { ModelDirs } from './models.js';
import { documented } from '../http/openapi.js';

export interface ShelfDeps {
  db: Db;
  media: MediaStore;
  dirs: ModelDirs;
  requireAdmin: Middleware[];
}

export function mountModelShelf<M>(router: Router, { db, media, dirs, requireAdmin }: ShelfDeps, shelf: ModelShelf<M>, nameSchema: z.ZodType<string>): void {
  const modelName = (ctx: Context) => {
    const parsed = nameSchema.safeParse(ctx.params.name);
    if (!parsed.success) throw notFound(`Model ${ctx.params.name}`);
    return parsed.data;
  };
  const UploadInit = modelUploadInit(nameSchema);

  router.get('/models', ...requireAdmin, async (ctx) => {
    ctx.body = await listShelf(db, dirs, shelf);
  });

  router.post('/models', ...requireAdmin, documented({ body: UploadInit }), async (ctx) => {
    ctx.status = 201;
    ctx.body = await openModelUpload(db, media, dirs, shelf, currentUser(ctx), parseBody(ctx, UploadInit));
  });

  router.post('/models/uploads/:uploadId/complete', ...requireAdmin, async (ctx) => {
    const uploadId = parseWith(UploadId, ctx.params.uploadId);
    const { model, created } = await completeModelUpload(db, media, dirs, shelf, currentUser(ctx), uploadId);
    ctx.status = created ? 201 : 200;
    ctx.body = model;
  });

  router.post('/models/:name/verify', ...requireAdmin, async (ctx) => {
    ctx.body = await verifyModel(db, dirs, shelf, modelName(ctx));
  });

  router.delete('/models/:name', ...requireAdmin, async (ctx) => {
    ctx.body = await removeModel(db, dirs, shelf, modelName(ctx));
  });
}
