// The server's log (issue 38): JSON lines through pino with a request id on each line of a request (the caller's
// X-Request-Id when sane, else a new one, echoed in the response), in DATA_DIR/logs/server.log on a laptop or on
// stdout (LOG_TARGET=stdout). No password, token, API key, METRICS_TOKEN or customer number reaches a line, even at
// LOG_LEVEL=debug, where each request's headers, query and body are logged.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startCli, stopCli, type StartedCli } from '../support/cli.js';
import { ApiClient } from '../support/client.js';

const ADMIN_PASSWORD = 'admin-Pass-7f3k9q';
const WRONG_PASSWORD = 'wrong-Pass-z8x7c6';
const METRICS_TOKEN = 'metrics-Token-q1w2e3r4t5y6';
const API_KEY = 'sk-live-K3y9f8g7h6j5';
const QUERY_SECRET = 'query-Secret-m4n5b6';
const PHONE = '13812345678';

interface Line {
  level: string;
  msg: string;
  reqId?: string;
  [key: string]: unknown;
}

const linesOf = (text: string): Line[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);

/** Requests carrying every kind of secret; returns the ones a log must never show. */
async function requestsWithSecrets(url: string): Promise<string[]> {
  const api = new ApiClient(url);
  const refused = await api.post('/api/auth/login', { body: { username: 'admin', password: WRONG_PASSWORD }, headers: { 'x-request-id': 'test-req-001' } });
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get('x-request-id'), 'test-req-001', 'a sane incoming id is echoed');
  const token = await api.login('admin', ADMIN_PASSWORD);
  const list = await api.get(`/api/products?page=1&size=5&token=${QUERY_SECRET}`, { token, headers: { 'x-request-id': 'bad id with spaces!' } });
  assert.equal(list.status, 200);
  assert.match(list.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, 'an id with spaces is replaced by a new one');
  assert.notEqual((await api.get('/api/products', { token, headers: { 'x-request-id': 'x'.repeat(129) } })).headers.get('x-request-id'), 'x'.repeat(129));
  const route = await api.post('/api/ai/routes', {
    token,
    body: { name: 'Cloud chat', kind: 'chat', provider: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', api_key: API_KEY, model: 'gpt-test' },
  });
  assert.equal(route.status, 201, route.text);
  assert.equal((await api.post('/api/system/departments', { token, body: { name: `客户 ${PHONE} 回访组` } })).status, 201);
  assert.equal((await api.get('/api/auth/me', { headers: { authorization: 'Bearer not-a-real-token-abcdef123' } })).status, 401);
  assert.equal((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status, 200);
  return [ADMIN_PASSWORD, WRONG_PASSWORD, token, token.split('.')[2]!, METRICS_TOKEN, API_KEY, QUERY_SECRET, PHONE, 'not-a-real-token-abcdef123'];
}

function assertNoSecrets(text: string, secrets: string[], where: string): void {
  for (const secret of secrets) assert.equal(text.includes(secret), false, `${where} shows ${secret}`);
}

describe('structured log', () => {
  const dirs: string[] = [];
  const running: StartedCli[] = [];
  after(async () => {
    for (const cli of running) await stopCli(cli.child, 'SIGKILL');
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });
  const start = async (env: Record<string, string>) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-logs-'));
    dirs.push(dir);
    // production: request failures are logged too (NODE_ENV=test keeps them quiet).
    const cli = await startCli({ DATA_DIR: dir, PORT: '0', ADMIN_PASSWORD, METRICS_TOKEN, LOG_LEVEL: 'debug', NODE_ENV: 'production', ...env });
    running.push(cli);
    return { cli, dir };
  };

  test('laptop: JSON lines in logs/server.log, the request id on each line of a request, no secret anywhere', async () => {
    const { cli, dir } = await start({});
    const secrets = await requestsWithSecrets(cli.url);
    await stopCli(cli.child);
    const file = await fs.readFile(path.join(dir, 'logs', 'server.log'), 'utf8');
    assertNoSecrets(file, secrets, 'server.log');
    assertNoSecrets(cli.output, secrets, 'the console');
    for (const line of file.trim().split('\n')) assert.doesNotThrow(() => JSON.parse(line), `not a JSON line: ${line}`);
    const lines = linesOf(file);
    const ofRequest = lines.filter((line) => line.reqId === 'test-req-001');
    const done = ofRequest.find((line) => line.msg === 'request');
    assert.ok(done, 'the request has its line');
    assert.deepEqual([done.level, done.method, done.route, done.status], ['info', 'POST', '/api/auth/login', 401]);
    const detail = ofRequest.find((line) => line.msg === 'request detail');
    assert.ok(detail, 'LOG_LEVEL=debug logs what the request carried');
    assert.deepEqual(detail.body, { username: 'admin', password: '[REDACTED]' }, 'the body is logged, its password redacted');
    const withQuery = lines.find((line) => line.msg === 'request detail' && (line.query as { size?: string })?.size === '5');
    assert.equal((withQuery?.query as { token?: string }).token, '[REDACTED]');
    assert.equal((withQuery?.headers as { authorization?: string }).authorization, '[REDACTED]');
    assert.ok(lines.some((line) => line.msg === 'request detail' && String(JSON.stringify(line.body)).includes('客户 [REDACTED] 回访组')), 'the phone number in a body is scrubbed');
    assert.ok(lines.some((line) => line.level === 'info' && /^server stopped cleanly/.test(line.msg)), 'lifecycle lines are JSON lines too');
    const ids = new Set(lines.filter((line) => line.msg === 'request').map((line) => line.reqId));
    assert.ok(ids.size >= 6, 'each request its own id');
  });

  test('server: LOG_TARGET=stdout writes the JSON lines to stdout and no log file', async () => {
    const { cli, dir } = await start({ LOG_TARGET: 'stdout' });
    const secrets = await requestsWithSecrets(cli.url);
    await stopCli(cli.child);
    assertNoSecrets(cli.output, secrets, 'stdout');
    const lines = linesOf(cli.output);
    assert.ok(lines.some((line) => line.reqId === 'test-req-001' && line.msg === 'request' && line.status === 401));
    assert.ok(lines.some((line) => /^server \S+ \(API 1\.3\.0\) ready on/.test(line.msg)));
    await assert.rejects(fs.stat(path.join(dir, 'logs', 'server.log')), { code: 'ENOENT' });
  });
});
