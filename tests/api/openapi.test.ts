// GET /api/openapi.json (issue 38): an OpenAPI 3.1 document generated from the routers and the zod schemas the
// routes validate with; every registered route (each method of each router layer mounted in server/app.ts) must be
// in it, with its auth and the envelope. GET /api/docs: the reference page, served from the app's own files.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

interface Operation {
  security?: Record<string, string[]>[];
  'x-auth'?: string;
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[]; $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const openApiPath = (path: string) => path.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');

describe('OpenAPI document and reference page', () => {
  let ts: TestServer;
  let doc: Document;
  before(async () => {
    ts = await startTestServer();
    const res = await fetch(`${ts.url}/api/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    doc = (await res.json()) as Document;
  });
  after(async () => {
    await ts.close();
  });

  test('is OpenAPI 3.1 of API 1.3.0 and has every registered route, each method', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.3.0');
    assert.ok(ts.server.routes.length > 100, `${ts.server.routes.length} routes registered`);
    const missing = ts.server.routes.flatMap(({ path, methods }) =>
      methods.filter((method) => method !== 'OPTIONS' && !doc.paths[openApiPath(path)]?.[method.toLowerCase()]).map((method) => `${method} ${path}`),
    );
    assert.deepEqual(missing, [], 'routes missing from the document');
    assert.ok(doc.paths['/api/openapi.json']?.get && doc.paths['/api/docs']?.get && doc.paths['/metrics']?.get);
  });

  test('auth per route: none, a user\'s bearer token, an administrator\'s, a branch device\'s', () => {
    assert.equal(doc.paths['/api/health']!.get!['x-auth'], 'none');
    assert.deepEqual(doc.paths['/api/health']!.get!.security, []);
    assert.equal(doc.paths['/api/auth/login']!.post!['x-auth'], 'none');
    assert.equal(doc.paths['/api/products']!.get!['x-auth'], 'user');
    assert.deepEqual(doc.paths['/api/products']!.get!.security, [{ bearer: [] }]);
    assert.ok(doc.paths['/api/products']!.get!.responses['401']);
    assert.equal(doc.paths['/api/products']!.get!.responses['403'], undefined);
    assert.equal(doc.paths['/api/products']!.post!['x-auth'], 'admin');
    assert.ok(doc.paths['/api/products']!.post!.responses['403']);
    assert.equal(doc.paths['/api/sync/push']!.post!['x-auth'], 'device');
    assert.deepEqual(doc.paths['/api/sync/push']!.post!.security, [{ device: [] }]);
    assert.ok(doc.components.securitySchemes.bearer && doc.components.securitySchemes.device);
  });

  test('path parameters, the envelope and the error codes', () => {
    const product = doc.paths['/api/products/{id}']!.get!;
    assert.deepEqual(product.parameters?.map((p) => [p.in, p.name, p.required]), [['path', 'id', true]]);
    const errorEnvelope = JSON.stringify(doc.components.schemas.ErrorEnvelope);
    for (const code of ['validation_failed', 'unauthorized', 'forbidden', 'not_found', 'internal_error']) assert.ok(errorEnvelope.includes(code), code);
    assert.match(JSON.stringify(product.responses['404']), /ErrorEnvelope/);
    assert.match(JSON.stringify(product.responses['200']), /"data"|Envelope/);
  });

  test('request bodies and queries come from the zod schemas the routes validate with', () => {
    const login = doc.paths['/api/auth/login']!.post!.requestBody!.content['application/json']!.schema;
    assert.deepEqual(Object.keys(login.properties ?? {}).sort(), ['password', 'username']);
    assert.deepEqual([...(login.required ?? [])].sort(), ['password', 'username']);
    const route = doc.paths['/api/ai/routes']!.post!.requestBody!.content['application/json']!.schema;
    assert.ok(route.properties?.api_key && route.properties?.model, 'the model route body');
    const productsQuery = doc.paths['/api/products']!.get!.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
    assert.ok(productsQuery.includes('page') && productsQuery.includes('size'), `products query: ${productsQuery}`);
  });

  test('GET /api/docs is Swagger UI from the app\'s own files: nothing from another origin', async () => {
    const page = await fetch(`${ts.url}/api/docs`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /swagger-ui/);
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, 'no CDN');
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    for (const src of [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)) {
      const asset = await fetch(`${ts.url}${src}`);
      assert.equal(asset.status, 200, src);
      assert.ok((await asset.arrayBuffer()).byteLength > 0, src);
    }
    const initializer = await (await fetch(`${ts.url}/api/docs/initializer.js`)).text();
    assert.match(initializer, /url: '\/api\/openapi\.json'/);
    assert.equal((await fetch(`${ts.url}/api/docs/..%2Fpackage.json`)).status, 404);
    assert.equal((await fetch(`${ts.url}/api/docs/swagger-ui.js.map`)).status, 404);
  });
});
