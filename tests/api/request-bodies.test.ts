// A request body is judged after the route's authentication and role checks, and whatever is wrong with it is a
// clear 4xx in the envelope: malformed JSON, too large, not decompressible, sent as another type, poisoned keys.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { startTestServer, type TestServer } from '../support/server.js';

interface Sent {
  token?: string;
  type?: string;
  encoding?: string;
  method?: string;
}

describe('request bodies', () => {
  let s: TestServer;
  let employee: { token: string };
  before(async () => {
    s = await startTestServer();
    employee = await s.user();
  });
  after(() => s.close());

  async function send(path: string, body: string | Buffer, { token, type = 'application/json', encoding, method = 'POST' }: Sent = {}) {
    const headers: Record<string, string> = { 'content-type': type };
    if (token) headers.authorization = `Bearer ${token}`;
    if (encoding) headers['content-encoding'] = encoding;
    const res = await fetch(`${s.url}${path}`, { method, headers, body: typeof body === 'string' ? body : new Uint8Array(body) });
    return { status: res.status, body: (await res.json()) as { data: unknown; error: string | null; message: string } };
  }

  const tooLarge = `{"name":"${'x'.repeat(3 * 1024 * 1024)}"}`;
  const corruptGzip = Buffer.from('{"name":"not gzip at all"}');
  const truncatedGzip = zlib.gzipSync(JSON.stringify({ name: 'x'.repeat(10_000) })).subarray(0, 40);

  test('without a valid token it is 401, and an employee on an admin endpoint 403, whatever the body', async () => {
    for (const [body, encoding] of [['{bad', undefined], [tooLarge, undefined], [corruptGzip, 'gzip'], [truncatedGzip, 'gzip']] as const) {
      assert.equal((await send('/api/products', body, { encoding })).status, 401);
      assert.equal((await send('/api/products', body, { encoding, token: 'garbage' })).status, 401);
      const asEmployee = await send('/api/products', body, { encoding, token: employee.token });
      assert.deepEqual([asEmployee.status, asEmployee.body.error], [403, 'forbidden']);
    }
    assert.equal((await send('/api/system/users', '{bad', { token: employee.token })).status, 403);
  });

  test('for an allowed caller: malformed JSON 400, too large 413, undecompressible 400, never a 500', async () => {
    const malformed = await send('/api/products', '{bad', { token: s.adminToken });
    assert.deepEqual([malformed.status, malformed.body.error, malformed.body.data], [400, 'invalid_json', null]);
    assert.deepEqual((await send('/api/products', tooLarge, { token: s.adminToken })).status, 413);
    for (const [body, encoding] of [[corruptGzip, 'gzip'], [corruptGzip, 'deflate'], [corruptGzip, 'br'], [truncatedGzip, 'gzip']] as const) {
      const res = await send('/api/products', body, { token: s.adminToken, encoding });
      assert.deepEqual([res.status, res.body.error], [400, 'bad_request'], `${encoding}: ${res.body.message}`);
      assert.match(res.body.message, /decompress/);
    }
    const login = await send('/api/auth/login', corruptGzip, { encoding: 'gzip' });
    assert.deepEqual([login.status, login.body.error], [400, 'bad_request'], 'login reads its body without a token');
    const gzipped = await send('/api/products', zlib.gzipSync(JSON.stringify({ name: '压缩产品', code: 'GZ-1', category: 'test' })), { token: s.adminToken, encoding: 'gzip' });
    assert.equal(gzipped.status, 201, 'a body that matches its encoding is read');
  });

  test('a JSON text sent as another type is a 415 that says so, not a list of missing fields', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await send('/api/system/users', JSON.stringify({ username: 'typed', password: '123456' }), { token: s.adminToken, type });
      assert.deepEqual([res.status, res.body.error], [415, 'unsupported_media_type'], type);
      assert.match(res.body.message, /application\/json/);
    }
  });

  test('a "__proto__" key is refused with a message naming it', async () => {
    const res = await send('/api/specialists', '{"key":"p1","name":"p","interaction_card_json":{"__proto__":{"x":1}}}', { token: s.adminToken });
    assert.deepEqual([res.status, res.body.error], [400, 'invalid_json']);
    assert.match(res.body.message, /__proto__/);
  });

  test('a compressed multipart body is a 415, not garbled fields or a stored file', async () => {
    for (const path of ['/api/media/upload', '/api/media/upload/chunk', '/api/audio/transcribe', '/api/company-train/suggest-material']) {
      const form = new FormData();
      form.set('bind_type', 'none');
      form.set('file', new Blob([new Uint8Array(64)]), 'a.wav');
      const res = await fetch(`${s.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${employee.token}`, 'content-encoding': 'zstd' }, body: form });
      const body = (await res.json()) as { error: string; message: string };
      assert.deepEqual([res.status, body.error], [415, 'unsupported_media_type'], `${path}: ${body.message}`);
    }
    const pending = (await s.api.get('/api/media/audit-list?status=all', { token: s.adminToken })).body.data as { items?: unknown[] } | unknown[];
    assert.equal(Array.isArray(pending) ? pending.length : (pending.items ?? []).length, 0, 'nothing stored');
  });

  test('a body nested deeper than 64 levels is refused; a method nobody knows is a 405, not a 5xx', async () => {
    const deep = `{"key":"deep1","name":"n","config_json":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const res = await send('/api/skills', deep, { token: s.adminToken });
    assert.deepEqual([res.status, res.body.error], [400, 'invalid_json'], res.body.message);
    assert.match(res.body.message, /nested deeper than 64/);
    const shallow = `{"answers":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`;
    assert.notEqual((await send('/api/exam/submit', shallow, { token: employee.token })).body.error, 'invalid_json', '40 levels are read');
    for (const path of ['/api/products', '/api/nope']) {
      const odd = await fetch(`${s.url}${path}`, { method: 'PROPFIND', headers: { authorization: `Bearer ${s.adminToken}` } });
      assert.equal(odd.status, 405, path);
      assert.equal(((await odd.json()) as { error: string }).error, 'method_not_allowed');
    }
  });

  test('OPTIONS lists the allowed methods with data null', async () => {
    const res = await fetch(`${s.url}/api/products`, { method: 'OPTIONS' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('allow') ?? '', /GET/);
    assert.deepEqual(await res.json(), { data: null, error: null, message: 'success' });
  });
});
