import fs from 'node:fs';
import Router from '@koa/router';
import type { Deps } from '../context.js';
import type { MediaDirs } from './media.storage.js';
import { mediaStore } from './media.store.js';
import { now } from '../db/time.js';
import { registerFileSigner } from './media.signing.js';
import { forgetChunksNotOnDisk, markChunksOnDisk, reopenInterruptedMerges, sweepUploads, writesBehind } from './media.chunked.js';
import { extractionQueue, registerExtractionQueue } from './media.extraction.js';
import { uploadRoutes } from './media.upload.routes.js';
import { reviewRoutes } from './media.review.routes.js';
import { mkdirPrivateSync } from '../data-dir.js';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Folders and a clean incoming/: done synchronously, before the first request can arrive. */
function prepareStorage(dirs: MediaDirs): void {
  fs.rmSync(dirs.incoming, { recursive: true, force: true });
  for (const dir of Object.values(dirs)) mkdirPrivateSync(dir);
}

/**
 * /api/media/* (spec 4.6) and POST /api/company-train/suggest-material (4.2). Also runs the domain's background
 * work: text extraction of approved media, and the sweep of abandoned upload sessions (at start and every 10 min).
 */
export function mediaRoutes({ db, config, storage, secrets, jobs, requireUser, requireAdmin, onClose }: Deps): Router {
  const media = mediaStore(storage, config.dataDir);
  prepareStorage(media.dirs);
  registerFileSigner(db, secrets.urlSigningSecret);
  const log = (err: unknown) => {
    if (process.env.NODE_ENV !== 'test') console.error('[media]', err);
  };
  const extraction = extractionQueue(db, storage, jobs, config.jobLeaseSeconds, log);
  registerExtractionQueue(db, extraction);
  const sweep = () => sweepUploads(db, media).catch(log);
  media.chunks.onDurable = (uploadId, writtenBefore) => markChunksOnDisk(db, uploadId, writtenBefore);
  const startup = forgetChunksNotOnDisk(db, now())
    .then(() => reopenInterruptedMerges(db))
    .then(sweep)
    .catch(log);
  // The start swept already (above): the next sweep one period later.
  jobs.schedule('media-sweep', { everyMs: SWEEP_INTERVAL_MS, firstAfterMs: SWEEP_INTERVAL_MS }, async () => {
    await startup;
    await sweepUploads(db, media);
  });
  onClose(async () => {
    await startup;
    await writesBehind.settleAll();
    await media.chunks.closeAll();
  });

  const router = new Router();
  for (const routes of uploadRoutes({ db, media, requireUser })) router.use(routes.routes());
  router.use(reviewRoutes({ db, media, requireUser, requireAdmin, onApproved: (id) => extraction.enqueue(id) }).routes());
  return router;
}
