// GET /metrics (issue 38): Prometheus text behind METRICS_TOKEN (404 to anyone else, and when it is unset), request
// durations labelled by the router's template (never a raw id), the default process metrics, jobs by kind (a
// scheduled job's runs), the database pool, the transcription queue, the cache bus and sync batches.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/until.js';

const TOKEN = 'metrics-token-0123456789abcdef';

const scrape = (ts: TestServer, authorization?: string) => fetch(`${ts.url}/metrics`, { headers: authorization ? { authorization } : {} });

describe('GET /metrics', () => {
  let ts: TestServer;
  let plain: TestServer;
  before(async () => {
    ts = await startTestServer({ metricsToken: TOKEN, reminderScanMs: 200 });
    plain = await startTestServer();
  });
  after(async () => {
    await ts.close();
    await plain.close();
  });

  test('is 404 without the bearer token, with a wrong one, and on a server without METRICS_TOKEN', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await scrape(ts, authorization);
      assert.equal(res.status, 404, `authorization ${authorization}`);
      assert.equal((await res.json()).error, 'not_found');
    }
    assert.equal((await scrape(plain, `Bearer ${TOKEN}`)).status, 404);
    assert.equal((await scrape(plain)).status, 404);
  });

  test('answers the Prometheus text format with the bearer token', async () => {
    const res = await scrape(ts, `Bearer ${TOKEN}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    for (const name of [
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'http_request_duration_seconds',
      'trainbench_jobs_queued',
      'trainbench_jobs_running',
      'trainbench_jobs_failed_total',
      'trainbench_db_pool_used',
      'trainbench_db_pool_pending',
      'trainbench_cache_bus_lag_seconds',
      'trainbench_sync_batches_total',
      'trainbench_transcription_queue_length',
    ]) {
      assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), name);
    }
    assert.match(text, /^trainbench_transcription_queue_length 0$/m);
    assert.match(text, /^trainbench_db_pool_used \d+$/m);
  });

  test('request durations are labelled by the route template and status, never by a raw id', async () => {
    const missing = await ts.api.get('/api/products/987654', { token: ts.adminToken });
    assert.equal(missing.status, 404);
    assert.equal((await ts.api.get('/api/products?page=1&size=5', { token: ts.adminToken })).status, 200);
    assert.equal((await ts.api.get('/api/no-such-thing/123')).status, 404);
    const text = await (await scrape(ts, `Bearer ${TOKEN}`)).text();
    assert.match(text, /^http_request_duration_seconds_count\{method="GET",route="\/api\/products\/:id",status="404"\} 1$/m);
    assert.match(text, /^http_request_duration_seconds_count\{method="GET",route="\/api\/products",status="200"\} 1$/m);
    assert.match(text, /^http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} \d+$/m);
    assert.doesNotMatch(text, /987654/);
    assert.doesNotMatch(text, /no-such-thing/);
  });

  test('a scheduled job\'s runs show as trainbench_jobs_* of its kind', async () => {
    const completed = async () => {
      const text = await (await scrape(ts, `Bearer ${TOKEN}`)).text();
      return Number(/^trainbench_jobs_completed_total\{kind="schedule\.assignment-reminders"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    await until(async () => (await completed()) >= 2, 'two runs of the reminder scan');
    const text = await (await scrape(ts, `Bearer ${TOKEN}`)).text();
    assert.match(text, /^trainbench_jobs_queued\{kind="schedule\.assignment-reminders"\} [01]$/m);
    assert.match(text, /^trainbench_jobs_queued\{kind="schedule\.media-sweep"\} 0$/m, 'the media sweep is a scheduled kind (its first run 10 min after start)');
  });
});
