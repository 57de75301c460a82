// Issue 34, "nothing one request does stalls the others", over real HTTP: while one heavy request runs — a phrase of
// many gaps against a long run of one letter, and the figures, the Word export, an inspection and a coaching report
// of a 20,000-segment transcript — GET /api/health keeps answering. Measured as the probe's worst latency during the
// request, never as a timing of the request itself. The target is 100 ms (npm run bench -- stalls reports the
// p99 against it); on this shared two-core machine (load average above 20) one probe now and then waits several
// hundred ms for the CPU whatever runs, so the test's bound is a second, overridable with STALL_TEST_BOUND_MS: before
// the fix, the figures held every request for 11 s, the Word export for 7–9 s, a coaching report for 15 s, and the
// phrase for longer than the test's time-out.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import JSZip from 'jszip';
import { startTestServer, type TestServer } from '../support/server.js';
import type { FakeModel } from '../support/fake-model.js';
import { useFakeModel } from './workbench.fixtures.js';
import { addCloudRoute, transcribeScript } from './compliance-fixtures.js';
import { MAX_SEGMENTS, bigTranscription, probeHealth } from './stalls-fixtures.js';

const HEALTH_BOUND_MS = Number(process.env.STALL_TEST_BOUND_MS ?? 1000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('nothing one request does stalls the others', () => {
  let ts: TestServer;
  let fake: FakeModel;
  let rep: { id: number; token: string };
  let big: number;

  const stallFree = (what: string, probed: { worst: number; p99: number; latencies: number[] }) => {
    assert.ok(probed.latencies.length > 0, `${what}: the health probe answered during the request`);
    assert.ok(probed.worst < HEALTH_BOUND_MS, `${what}: the slowest health answer took ${probed.worst.toFixed(0)} ms (bound ${HEALTH_BOUND_MS} ms)`);
    console.log(`# ${what}: health worst ${probed.worst.toFixed(0)} ms, p99 ${probed.p99.toFixed(0)} ms over ${probed.latencies.length} probes`);
  };

  before(async () => {
    ts = await startTestServer();
    fake = await useFakeModel(ts);
    await addCloudRoute(ts, fake);
    rep = await ts.user();
    big = await bigTranscription(ts, fake, rep.token);
  });
  after(async () => {
    await fake?.close();
    await ts?.close();
  });

  test('a phrase of many gaps against a long run of one letter: the inspection answers and the server never stalls', async () => {
    const sets = (await ts.api.get('/api/compliance/rule-sets', { token: ts.adminToken })).body.data;
    const def = sets.find((s: Json) => s.is_default);
    const full = (await ts.api.get(`/api/compliance/rule-sets/${def.id}`, { token: ts.adminToken })).body.data;
    const trap = { ...full.rules.find((r: Json) => r.key === 'no_guarantee'), key: 'many_gaps', phrases: ['a*a*a*a*a*a*a*a*a*ab'] };
    const saved = await ts.api.put(`/api/compliance/rule-sets/${def.id}`, { token: ts.adminToken, body: { rules: [...full.rules, trap] } });
    assert.equal(saved.status, 200, saved.text);

    const letters = 'a'.repeat(60);
    const id = await transcribeScript(ts, fake, rep.token, [
      { side: 'rep', text: letters },
      { side: 'customer', text: '嗯。' },
      { side: 'rep', text: `${letters}${letters}${letters}` },
    ]);
    const probed = await probeHealth(ts.url, () => ts.api.post('/api/compliance/inspections', { token: rep.token, body: { transcription_id: id } }));
    assert.equal(probed.result.status, 201, probed.result.text);
    assert.equal(probed.result.body.data.results.find((r: Json) => r.rule_key === 'many_gaps').outcome, 'pass');
    stallFree('inspection with a phrase of many gaps', probed);
  });

  test(`figures of a ${MAX_SEGMENTS}-segment transcript`, async () => {
    const probed = await probeHealth(ts.url, () => ts.api.get(`/api/audio/transcriptions/${big}/figures`, { token: rep.token }));
    assert.equal(probed.result.status, 200, probed.result.text);
    const figures = probed.result.body.data;
    assert.deepEqual(figures.speakers.map((s: Json) => [s.speaker, s.segments]), [
      ['rep', MAX_SEGMENTS / 2],
      ['customer', MAX_SEGMENTS / 2],
    ]);
    // Every tenth customer turn starts a second before the rep's ends.
    assert.equal(figures.interruptions.length, MAX_SEGMENTS / 20);
    assert.deepEqual(figures.interruptions[0], { speaker: 'customer', interrupted: 'rep', at: 1.5 });
    stallFree('figures', probed);
  });

  test(`the Word export of a ${MAX_SEGMENTS}-segment transcript`, async () => {
    const probed = await probeHealth(ts.url, async () => {
      const res = await fetch(`${ts.url}/api/audio/transcriptions/${big}/export?format=docx`, { headers: { Authorization: `Bearer ${rep.token}` } });
      return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
    });
    assert.equal(probed.result.status, 200);
    assert.match(probed.result.type ?? '', /wordprocessingml/);
    // Every segment is a paragraph of the document, the last one too.
    const xml = await (await JSZip.loadAsync(probed.result.bytes)).file('word/document.xml')!.async('string');
    assert.ok((xml.match(/<w:p>|<w:p /g) ?? []).length >= MAX_SEGMENTS, 'a paragraph per segment');
    stallFree('docx export', probed);
  });

  test(`an inspection of a ${MAX_SEGMENTS}-segment transcript`, async () => {
    const probed = await probeHealth(ts.url, () => ts.api.post('/api/compliance/inspections', { token: rep.token, body: { transcription_id: big } }));
    assert.equal(probed.result.status, 201, probed.result.text);
    const results = probed.result.body.data.results as Json[];
    assert.equal(results.find((r) => r.rule_key === 'identity').outcome, 'pass');
    assert.equal(results.find((r) => r.rule_key === 'no_guarantee').outcome, 'pass');
    stallFree('inspection', probed);
  });

  test(`a coaching report of a ${MAX_SEGMENTS}-segment transcript`, async () => {
    fake.behave({ chunks: [JSON.stringify({ objections: [], contradictions: [], practice: [] })] });
    const probed = await probeHealth(ts.url, () => ts.api.post('/api/coaching/calls', { token: rep.token, body: { transcription_id: big, rep_speaker: 'rep' } }));
    assert.equal(probed.result.status, 201, probed.result.text);
    const report = probed.result.body.data;
    assert.equal(report.figures.speakers.find((s: Json) => s.speaker === 'rep').segments, MAX_SEGMENTS / 2);
    stallFree('coaching report', probed);
  });
});
