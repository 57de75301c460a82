import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { envelope } from '../../server/http/envelope.js';
import { CONTENT_SECURITY_POLICY, resolveStaticPath, serveRenderer } from '../../server/static/static.js';

const SECRET = 'top-secret-outside-the-build';
const INDEX = '<!doctype html><title>Trainbench</title><div id="root"></div>';
const SCRIPT = 'console.log("app")';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Sends the path exactly as written (fetch would normalise `..` away before it leaves the client). */
function raw(base: string, method: string, rawPath: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method, path: rawPath, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function serve(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Koa();
  app.use(envelope);
  app.use(serveRenderer(root));
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('serveRenderer', () => {
  let dir: string;
  let root: string;
  let server: { url: string; close(): Promise<void> };
  const get = (p: string, headers?: Record<string, string>) => raw(server.url, 'GET', p, headers);

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-static-'));
    root = path.join(dir, 'dist');
    await fs.mkdir(path.join(root, 'assets'), { recursive: true });
    await fs.writeFile(path.join(root, 'index.html'), INDEX);
    await fs.writeFile(path.join(root, 'assets', 'index-abc123.js'), SCRIPT);
    await fs.writeFile(path.join(root, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await fs.writeFile(path.join(root, '.env'), SECRET);
    await fs.writeFile(path.join(dir, 'secret.txt'), SECRET);
    await fs.writeFile(path.join(dir, 'dist-other.txt'), SECRET);
    await fs.symlink(path.join(dir, 'secret.txt'), path.join(root, 'linked.txt'));
    server = await serve(root);
  });

  after(async () => {
    await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  test('serves index.html at / with the security headers and no caching', async () => {
    const res = await get('/');
    assert.equal(res.status, 200);
    assert.equal(res.body, INDEX);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['cache-control'], 'no-cache');
  });

  test('serves hashed assets with their type and a long cache lifetime', async () => {
    const res = await get('/assets/index-abc123.js');
    assert.equal(res.status, 200);
    assert.equal(res.body, SCRIPT);
    assert.match(String(res.headers['content-type']), /^(application|text)\/javascript/);
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(SCRIPT)));
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['content-security-policy'], undefined);
  });

  test('answers an app page path with index.html (single-page fallback) but not a missing asset', async () => {
    const page = await get('/products/12', { accept: 'text/html,application/xhtml+xml' });
    assert.equal(page.status, 200);
    assert.equal(page.body, INDEX);

    const asset = await get('/assets/missing.js', { accept: '*/*' });
    assert.equal(asset.status, 404);
    assert.equal(JSON.parse(asset.body).error, 'not_found');

    const json = await get('/products/12', { accept: 'application/json' });
    assert.equal(json.status, 404);
  });

  test('leaves /api alone, even for a file name that exists', async () => {
    const res = await get('/api/index.html', { accept: 'text/html' });
    assert.equal(res.status, 404);
    assert.deepEqual(JSON.parse(res.body), { data: null, error: 'not_found', message: 'No endpoint GET /api/index.html' });
  });

  test('serves GET and HEAD only', async () => {
    const post = await raw(server.url, 'POST', '/index.html');
    assert.equal(post.status, 404);
    assert.equal(JSON.parse(post.body).error, 'not_found');

    const head = await raw(server.url, 'HEAD', '/index.html');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['content-length'], String(Buffer.byteLength(INDEX)));
  });

  test('answers 304 when the client has the current version', async () => {
    const first = await get('/logo.svg');
    assert.equal(first.status, 200);
    assert.match(String(first.headers['content-type']), /^image\/svg\+xml/);
    const again = await get('/logo.svg', { 'if-none-match': String(first.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.body, '');
  });

  for (const hostile of [
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/assets%5c..%5c..%5csecret.txt',
    '/%2e%2e%2fdist-other.txt',
    '/index.html%00.js',
    '/%ZZ',
    '/.env',
    '/assets/%2e%65nv',
    '/linked.txt',
    '//etc/passwd',
    '/%2Fetc%2Fpasswd',
  ]) {
    test(`does not serve ${hostile}`, async () => {
      const res = await get(hostile, { accept: '*/*' });
      assert.equal(res.status, 404, `${hostile} answered ${res.status}`);
      assert.ok(!res.body.includes(SECRET), `${hostile} leaked a file outside the build`);
    });
  }

  test('falls through when the renderer has not been built', async () => {
    const missing = await serve(path.join(dir, 'not-built'));
    try {
      const res = await raw(missing.url, 'GET', '/', { accept: 'text/html' });
      assert.equal(res.status, 404);
      assert.equal(JSON.parse(res.body).error, 'not_found');
    } finally {
      await missing.close();
    }
  });
});

describe('resolveStaticPath', () => {
  const root = path.resolve('/srv/app/dist');
  test('maps plain paths inside the root', () => {
    assert.equal(resolveStaticPath(root, '/assets/a%20b.js'), path.join(root, 'assets', 'a b.js'));
    assert.equal(resolveStaticPath(root, '/index.html'), path.join(root, 'index.html'));
  });
  test('refuses the root itself, dot segments, hidden files, NUL and backslashes', () => {
    for (const p of ['/', '/..', '/a/../../b', '/%2e%2e/x', '/.git/config', '/a\\..\\b', '/a%00b', '/%E0%A4%A']) {
      assert.equal(resolveStaticPath(root, p), null, p);
    }
  });
});
