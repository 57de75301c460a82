// Issue 34 benchmark, "nothing one request does stalls the others": GET /api/health's p99 and worst latency while each
// heavy request runs on a 20,000-segment transcript (figures, the Word export, an inspection, a coaching report) and
// while a phrase of many gaps is matched against a long run of one letter. Reported beside the same probe with
// nothing else running, in the same process (the ratio is the figure; the target is p99 < 100 ms).
import { startTestServer } from '../tests/support/server.js';
import { useFakeModel } from '../tests/api/workbench.fixtures.js';
import { addCloudRoute, transcribeScript } from '../tests/api/compliance-fixtures.js';
import { MAX_SEGMENTS, bigTranscription, probeHealth } from '../tests/api/stalls-fixtures.js';
import type { BenchContext } from './harness.js';

export default async function stalls(_ctx: BenchContext): Promise<void> {
  const ts = await startTestServer();
  const fake = await useFakeModel(ts);
  try {
    await addCloudRoute(ts, fake);
    const rep = await ts.user();
    const big = await bigTranscription(ts, fake, rep.token);
    const def = ((await ts.api.get('/api/compliance/rule-sets', { token: ts.adminToken })).body.data as { id: number; is_default: boolean }[]).find((s) => s.is_default)!;
    const full = (await ts.api.get(`/api/compliance/rule-sets/${def.id}`, { token: ts.adminToken })).body.data;
    const trap = { ...full.rules.find((r: { key: string }) => r.key === 'no_guarantee'), key: 'many_gaps', phrases: ['a*a*a*a*a*a*a*a*a*ab'] };
    await ts.api.put(`/api/compliance/rule-sets/${def.id}`, { token: ts.adminToken, body: { rules: [...full.rules, trap] } });
    const letters = await transcribeScript(ts, fake, rep.token, [{ side: 'rep', text: 'a'.repeat(180) }]);
    fake.behave({ chunks: [JSON.stringify({ objections: [], contradictions: [], practice: [] })] });

    const idle = await probeHealth(ts.url, () => new Promise((resolve) => setTimeout(resolve, 2000)));
    console.log(`idle: health p99 ${idle.p99.toFixed(1)} ms, worst ${idle.worst.toFixed(1)} ms (${idle.latencies.length} probes)`);
    const cases: [string, () => Promise<unknown>][] = [
      ['phrase a*a*a*a*a*a*a*a*a*ab vs 180 a', () => ts.api.post('/api/compliance/inspections', { token: rep.token, body: { transcription_id: letters } })],
      [`figures (${MAX_SEGMENTS} segments)`, () => ts.api.get(`/api/audio/transcriptions/${big}/figures`, { token: rep.token })],
      [`docx export (${MAX_SEGMENTS} segments)`, () => fetch(`${ts.url}/api/audio/transcriptions/${big}/export?format=docx`, { headers: { Authorization: `Bearer ${rep.token}` } }).then((r) => r.arrayBuffer())],
      [`inspection (${MAX_SEGMENTS} segments)`, () => ts.api.post('/api/compliance/inspections', { token: rep.token, body: { transcription_id: big } })],
      [`coaching report (${MAX_SEGMENTS} segments)`, () => ts.api.post('/api/coaching/calls', { token: rep.token, body: { transcription_id: big, rep_speaker: 'rep' } })],
    ];
    for (const [name, request] of cases) {
      const probed = await probeHealth(ts.url, request);
      console.log(
        `${name}: health p99 ${probed.p99.toFixed(1)} ms (${(probed.p99 / Math.max(1, idle.p99)).toFixed(2)}x idle), worst ${probed.worst.toFixed(1)} ms, ${probed.latencies.length} probes — target p99 < 100 ms: ${probed.p99 < 100 ? 'met' : 'NOT met'}`,
      );
    }
  } finally {
    await fake.close();
    await ts.close();
  }
}
