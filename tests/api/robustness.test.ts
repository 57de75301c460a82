// Every route of the API, as admin and as employee, with hostile input: odd ids, broken or mistyped JSON bodies,
// broken multipart forms, nonsense query strings. Whatever happens, the answer is a 4xx (or a success) in the envelope, never a 500, and the
// server keeps answering. The only 500s the spec allows are "no model route" and "every model route failed".
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

const IDS = ['abc', '0', '-1', '1', '999999', '3000000000', '1e3', '%00'];
const BODIES: (string | undefined)[] = [
  undefined,
  '{"unterminated":',
  '[1, 2, 3]',
  '"a string"',
  'null',
  JSON.stringify({ id: 'x', name: 42, title: [], username: {}, password: 1, status: 'zzz', page: -1, size: 'big', answers: 'none', ids: 'x' }),
  JSON.stringify({ name: 'x'.repeat(100_000), content: null, product_ids: [1.5, -2, 'a'], configs: [], knowledge: 'none', paper_id: 3_000_000_000 }),
  JSON.stringify({ name: 'nul\u0000', title: 'nul\u0000', username: 'nul\u0000', message: 'nul\u0000', key: 'nul\u0000', code: 'nul\u0000', upload_id: 'nul\u0000' }),
];
/** Multipart bodies: cut off before the closing boundary, a file part without a name, and no parts at all. */
const FORMS = [
  '--b\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\n\r\nabc',
  '--b\r\nContent-Disposition: form-data; filename="../../etc/passwd"\r\n\r\nabc\r\n--b--\r\n',
  '--b--\r\n',
];
const QUERY = '?page=-1&size=abc&status=zzz&id=abc&q=%25%27%22%00&limit=1e9&category[]=x&unread_only=maybe&domain=%00';
/** Spec part 7: a chat or transcription without a working model route is a 500 with one of these codes. */
const ALLOWED_500 = new Set(['no_model_route', 'model_route_failed']);

describe('no input makes the server fail', () => {
  let ts: TestServer;
  let employeeToken = '';

  before(async () => {
    ts = await startTestServer();
    employeeToken = (await ts.user('employee')).token;
  });
  after(() => ts.close());

  /** The concrete paths to try for a route pattern: every id variant in every :param. */
  const pathsOf = (pattern: string) => (pattern.includes(':') ? IDS.map((id) => pattern.replace(/:[A-Za-z_]+/g, id)) : [pattern]);

  test('every route answers hostile input with a 4xx or a success, never a 500', async () => {
    const failures: string[] = [];
    let requests = 0;
    const routes = ts.server.routes.filter((r) => r.path !== '/api/health');
    assert.ok(routes.length > 100, `the route table lists the API (${routes.length} routes)`);
    for (const { path, methods } of routes) {
      for (const method of methods) {
        for (const target of pathsOf(path)) {
          const bodies: [string | undefined, string][] = method === 'GET' || method === 'DELETE' ? [[undefined, '']] : [...BODIES.map((b): [string | undefined, string] => [b, 'application/json']), ...FORMS.map((f): [string, string] => [f, 'multipart/form-data; boundary=b'])];
          for (const [body, contentType] of bodies) {
            for (const token of [ts.adminToken, employeeToken]) {
              const res = await fetch(`${ts.url}${target}${QUERY}`, {
                method,
                headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': contentType }) },
                body,
                signal: AbortSignal.timeout(30_000),
              });
              requests++;
              const text = await res.text();
              if (res.status < 500) continue;
              const code = (() => {
                try {
                  return (JSON.parse(text) as { error?: string }).error;
                } catch {
                  return undefined;
                }
              })();
              if (!ALLOWED_500.has(code ?? '')) failures.push(`${method} ${target} ${body?.slice(0, 40) ?? '(no body)'} → ${res.status} ${text.slice(0, 200)}`);
            }
          }
        }
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of ${requests} requests failed`);
    const health = await fetch(`${ts.url}/api/health`);
    assert.equal(health.status, 200, 'the server still answers');
  });
});
