import Router from '@koa/router';
import type { Deps } from '../context.js';
import { z } from 'zod';
import { parseBody, parseId, parseQuery, parseWith, QueryBool } from '../http/validate.js';
import { formField, multipart, requireFile } from '../http/multipart.js';
import { validationFailed } from '../http/errors.js';
import { categoriesJson, findProductRow, listProductsJson } from './products.repository.js';
import { createProduct, deactivateProduct, getProductDetail, updateProduct } from './products.service.js';
import { importProducts } from './products.import.js';
import { ListQuery, ProductCreate, ProductUpdate, RISK_LEVEL_HINT, unrecognisedRiskLevel } from './products.schema.js';
import { documented } from '../http/openapi.js';

const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

const DryRun = z.object({ dry_run: QueryBool });

export function productRoutes({ db, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/products' });

  router.get('/', requireUser, documented({ query: ListQuery }), async (ctx) => {
    ctx.body = await listProductsJson(db, parseQuery(ctx, ListQuery));
  });

  router.get('/categories', requireUser, async (ctx) => {
    ctx.body = await categoriesJson(db, 'products');
  });

  router.post('/import', ...requireAdmin, multipart({ maxFileSize: IMPORT_MAX_BYTES }), async (ctx) => {
    // In the query or as a form field; anything but true/false/1/0 is a 400 rather than a real import.
    const dryRun = [ctx.query.dry_run, formField(ctx, 'dry_run')].some((v) => v !== undefined && parseWith(DryRun, { dry_run: v }).dry_run);
    const report = await importProducts(db, requireFile(ctx), dryRun);
    if (report.errors.length && !dryRun) {
      const first = report.errors.slice(0, 3).map((e) => `row ${e.row}${e.field ? ` (${e.field})` : ''}: ${e.error}`);
      throw validationFailed(`${report.errors.length} invalid row(s), nothing imported. ${first.join('; ')}`, report);
    }
    ctx.body = report;
  });

  router.get('/:id', requireUser, async (ctx) => {
    ctx.body = await getProductDetail(db, parseId(ctx.params.id, 'Product'));
  });

  // Typed here, a level nobody can read is refused; one a product already has (from a source written before levels
  // were checked) can be saved again as it is.
  const refuseUnreadableLevel = (given: string | undefined, stored?: string) => {
    if (unrecognisedRiskLevel(given) && given !== stored) throw validationFailed(`Invalid risk_level: ${RISK_LEVEL_HINT}`, [{ path: 'risk_level', message: RISK_LEVEL_HINT }]);
  };

  router.post('/', ...requireAdmin, documented({ body: ProductCreate }), async (ctx) => {
    const input = parseBody(ctx, ProductCreate);
    refuseUnreadableLevel(input.risk_level);
    const product = await createProduct(db, input);
    ctx.status = 201;
    ctx.body = product;
  });

  router.put('/:id', ...requireAdmin, documented({ body: ProductUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Product');
    const input = parseBody(ctx, ProductUpdate);
    if (input.risk_level !== undefined) refuseUnreadableLevel(input.risk_level, (await findProductRow(db, id))?.risk_level);
    ctx.body = await updateProduct(db, id, input);
  });

  router.delete('/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await deactivateProduct(db, parseId(ctx.params.id, 'Product'));
  });

  return router;
}
