import Router from '@koa/router';
import type { Deps } from '../context.js';
import type { PackKey } from '../../contract/knowledge-packs.js';
import { currentUser } from '../auth/guards.js';
import { localFileSource, sendFile } from '../http/file-response.js';
import { multipart, requireFile } from '../http/multipart.js';
import { parseBody } from '../http/validate.js';
import { clientGone } from '../http/client-gone.js';
import { buildPack } from './packs.export.js';
import { MAX_PACK_BYTES } from './packs.import.js';
import { importJobs } from './packs.import-job.js';
import { ExportBody } from './packs.schema.js';
import { newWorkFolder, packDirs, preparePackDirs, removeFolder } from './packs.storage.js';
import { documented } from '../http/openapi.js';

/** /api/knowledge-packs/*: this install's signing key, export of approved knowledge as a signed pack, import of one. */
export function knowledgePackRoutes({ db, config, storage, knowledgeStorage, secrets, jobs, requireAdmin }: Deps): Router {
  const dirs = packDirs(config.dataDir);
  preparePackDirs(dirs);
  const signer = secrets.packSigner;
  const router = new Router({ prefix: '/knowledge-packs' });

  router.get('/key', ...requireAdmin, (ctx) => {
    const key: PackKey = { public_key: signer.publicKey, fingerprint: signer.fingerprint };
    ctx.body = key;
  });

  // Built into a file under DATA_DIR first (so failures still get an error envelope and the length is known),
  // then streamed; the work folder goes when the response is over, however it ends.
  router.post('/export', ...requireAdmin, documented({ body: ExportBody }), async (ctx) => {
    const selection = parseBody(ctx, ExportBody);
    const work = await newWorkFolder(dirs);
    try {
      const pack = await buildPack({ db, knowledgeStorage, storage, signer }, selection, work);
      await sendFile(ctx, await localFileSource(pack.file), { filename: pack.filename, mimeType: 'application/gzip', disposition: 'attachment', cacheControl: 'no-store', ranges: false });
      ctx.res.once('close', () => void removeFolder(work));
    } catch (err) {
      await removeFolder(work);
      throw err;
    }
  });

  // A job, one at a time in the whole cluster; the client going away cancels it while it waits its turn.
  const importUploaded = importJobs({ db, knowledgeStorage, storage, dirs, jobs, leaseSeconds: config.jobLeaseSeconds });

  router.post('/import', ...requireAdmin, multipart({ maxFileSize: MAX_PACK_BYTES, uploadDir: dirs.incoming }), async (ctx) => {
    const file = requireFile(ctx, 'file');
    const { result, changed } = await importUploaded(file.filepath, currentUser(ctx), clientGone(ctx));
    ctx.status = changed ? 201 : 200;
    ctx.body = result;
  });

  return router;
}
