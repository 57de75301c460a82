import Router from '@koa/router';
import type { Deps } from '../context.js';
import type { CompanyIntro } from '../../contract/catalog.js';
import { readConfigValue } from '../system/config.service.js';
import { approvedMediaFor } from '../media/media.queries.js';

/** GET /api/company-train. Its content is the system parameter company_intro_content; suggest-material lives with media. */
export function companyRoutes({ db, requireUser }: Deps): Router {
  const router = new Router({ prefix: '/company-train' });
  router.get('/', requireUser, async (ctx) => {
    const body: CompanyIntro = {
      content: await readConfigValue<string>(db, 'company_intro_content'),
      medias: await approvedMediaFor(db, 'company'),
    };
    ctx.body = body;
  });
  return router;
}
