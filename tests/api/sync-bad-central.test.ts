// A branch enrolled with something that is not a (working) Trainbench central server: whatever JSON it answers is
// refused in plain words (502 in the envelope, never a 500), and a run never loops for ever.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../support/server.js';

/** What the fake answers to an enrolment and to each pull (as the `data` of an envelope unless `raw`). */
interface Script {
  enrol: unknown;
  pull: unknown;
  raw?: boolean;
}

const GOOD_ENROLMENT = { device_id: 7, device_gid: '0b0c5a9e-8f51-4c1e-9d59-2f0f6f3f7a11', credential: 'tbd_fake' };

describe('sync against a server that is not a Trainbench central server', () => {
  let branch: TestServer;
  let fake: http.Server;
  let url = '';
  let pulls = 0;
  let script: Script = { enrol: GOOD_ENROLMENT, pull: { changes: [], cursor: 'c1', more: false, remaining: 0 } };

  before(async () => {
    branch = await startTestServer();
    fake = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const path = req.url ?? '';
        if (path.startsWith('/api/sync/pull')) pulls++;
        const data = path.startsWith('/api/sync/enrol') ? script.enrol : path.startsWith('/api/sync/pull') ? script.pull : { results: [] };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(script.raw ? data : { data, error: null, message: 'success' }));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  after(async () => {
    await branch?.close();
    await new Promise((resolve) => fake?.close(resolve));
  });

  const enrol = () => branch.api.put('/api/sync/config', { token: branch.adminToken, body: { central_url: url, enrolment_token: 'tbe_whatever' } });
  const run = () => branch.api.post('/api/sync/run', { token: branch.adminToken });
  const lastError = async () => ((await branch.api.get('/api/sync/status', { token: branch.adminToken })).body.data as { last_error: string | null }).last_error;

  test('an enrolment answer of another shape is a 502 that says so, and enrols nothing', async () => {
    for (const enrolAnswer of [{ device_id: 'x', credential: 5 }, { device_id: null, device_gid: null, credential: null }, null]) {
      script = { enrol: enrolAnswer, pull: {} };
      for (const raw of [false, true]) {
        script.raw = raw;
        const res = await enrol();
        assert.deepEqual([res.status, res.body.error], [502, 'sync.central_refused'], res.text);
        assert.match(res.body.message, /not what a Trainbench central server sends/);
      }
    }
    const state = (await branch.api.get('/api/sync/status', { token: branch.adminToken })).body.data as { central_url: string | null };
    assert.equal(state.central_url, null, 'not enrolled');
  });

  test('a pull that says more follows but brings nothing, or does not move on, ends the run with a 502', async () => {
    script = { enrol: GOOD_ENROLMENT, pull: { changes: [], cursor: '0.1', more: true, remaining: 5 } };
    assert.equal((await enrol()).status, 200);
    pulls = 0;
    const res = await run();
    assert.deepEqual([res.status, res.body.error], [502, 'sync.central_refused'], res.text);
    assert.ok(pulls <= 2, `${pulls} pulls`);
    assert.match((await lastError()) ?? '', /sent none, or did not move on/);
  });

  test('pull answers of another shape, or changes this laptop cannot store, are 502s in plain words', async () => {
    const answers = [null, {}, { changes: 'x', cursor: 5, more: 'no' }, { changes: [{ entity: 'product', gid: 'not-a-gid', op: 'upsert', data: { name: null, code: null } }], cursor: 'c2', more: false, remaining: 0 }];
    for (const pull of answers) {
      script = { enrol: GOOD_ENROLMENT, pull };
      const res = await run();
      assert.deepEqual([res.status, res.body.error], [502, 'sync.central_refused'], `${JSON.stringify(pull)}: ${res.text}`);
      const error = (await lastError()) ?? '';
      assert.doesNotMatch(error, /insert into|Cannot read properties|is not iterable/, error);
    }
    const products = (await branch.api.get('/api/products?status=all', { token: branch.adminToken })).body.data as { name: string }[];
    assert.ok(products.every((p) => p.name !== null), 'nothing half-stored');
  });
});
