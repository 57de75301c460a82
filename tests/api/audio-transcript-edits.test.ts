// Speakers of mono calls, voiceprints, transcript revisions and exports, over real HTTP: sherpa-onnx (in its child
// process) with the generated tiny speaker models, whisper.cpp with the tiny Whisper model, calls spoken by
// espeak-ng's male and female voices.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import { startTestServer, type TestServer } from '../support/server.js';
import { writeTinyWhisperModel } from '../support/tiny-whisper-model.js';
import { writeTinySpeakerModels } from '../support/tiny-speaker-models.js';
import { form } from './media-fixtures.js';
import { LOCAL_PATH_MISSING } from './audio-fixtures.js';
import { FEMALE_VOICE, monoCall, type MonoCall } from './speaker-fixtures.js';

interface Segment {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

/** The voice whose turn holds most of the segment; undefined when it lies in no turn. */
function voiceAt(call: MonoCall, s: Segment): 'male' | 'female' | undefined {
  const overlap = (t: { start: number; end: number }) => Math.max(0, Math.min(t.end, s.end) - Math.max(t.start, s.start));
  const best = [...call.turns].sort((a, b) => overlap(b) - overlap(a))[0]!;
  return overlap(best) > 0 ? best.voice : undefined;
}

/** Every segment lies in a turn, and each label belongs to one voice only; returns label → voice. */
function labelsByVoice(call: MonoCall, segments: Segment[]): Map<string, string> {
  const voices = new Map<string, string>();
  for (const s of segments) {
    assert.ok(s.speaker, `segment ${JSON.stringify(s)} has a speaker`);
    const voice = voiceAt(call, s);
    assert.ok(voice, `segment ${JSON.stringify(s)} lies in a turn of the call`);
    const known = voices.get(s.speaker!);
    assert.ok(!known || known === voice, `label ${s.speaker} is used for one voice: ${JSON.stringify(segments)}`);
    voices.set(s.speaker!, voice!);
  }
  return voices;
}

describe('transcript revisions, exports and VAD', { skip: LOCAL_PATH_MISSING }, () => {
  let ts: TestServer;
  let call: MonoCall;
  let rep: { id: number; token: string };
  let models: { segmentation: string; embedding: string; vad?: string };
  const modelsDir = () => path.join(ts.dataDir, 'models');

  const transcribe = async (token: string, file: string, fields: Record<string, string> = { speakers: 'true' }) =>
    ts.api.request('POST', '/api/audio/transcribe', { token, form: form(fields, { name: path.basename(file), data: new Uint8Array(await fs.readFile(file)) }) });
  const setConfig = (configs: Record<string, unknown>) => ts.api.put('/api/system/config', { token: ts.adminToken, body: { configs } });
  const routeStatus = async () => (await ts.api.get('/api/ai/routes/audio', { token: rep.token })).body.data[0];

  before(async () => {
    [ts, call] = await Promise.all([startTestServer(), monoCall()]);
    await fs.mkdir(modelsDir(), { recursive: true });
    await writeTinyWhisperModel(path.join(modelsDir(), 'ggml-tiny-test.bin'), { segmentSeconds: 30 });
    models = await writeTinySpeakerModels(path.join(ts.dataDir, 'generated'));
    // Copied into DATA_DIR/models, as an admin may do instead of uploading.
    await fs.copyFile(models.segmentation, path.join(modelsDir(), 'segmentation-tiny.onnx'));
    await fs.copyFile(models.embedding, path.join(modelsDir(), 'embedding-tiny.onnx'));
    await fs.copyFile(models.vad!, path.join(modelsDir(), 'silero-vad-tiny.onnx'));
    const route = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { name: 'Desk whisper', kind: 'audio', provider: 'local-whisper', model: 'ggml-tiny-test.bin' } });
    assert.equal(route.status, 201, route.text);
    // The tiny models put espeak-ng's two voices about 1.7 apart in cosine distance.
    assert.equal((await setConfig({ audio_local_quality: 'fast', audio_speaker_threshold: 1.4 })).status, 200);
    rep = await ts.user();
  });
  after(() => ts?.close());

  test('an edit is revision 2; revision 1 stays the original; a stale save is a 409; coaching analyses revision 2; exports carry names, times and the file name in any language', async () => {
    // A file name in Chinese, as reps name their recordings: it reaches Content-Disposition whole.
    const named = path.join(ts.dataDir, '客户通话 2026.wav');
    await fs.copyFile(call.wav, named);
    const res = await transcribe(rep.token, named);
    assert.equal(res.status, 200, res.text);
    const original = res.body.data;
    assert.equal(original.revision, 1);
    const edited: Segment[] = original.segments.map((s: Segment, i: number) => ({ ...s, text: i === 0 ? 'Good morning, this is David from Trainbench Bank.' : s.text, speaker: s.speaker === 'A' ? 'rep' : 'customer' }));
    const put = await ts.api.put(`/api/audio/transcriptions/${original.id}/segments`, { token: rep.token, body: { base_revision: 1, segments: edited, speaker_names: { rep: '王经理', customer: '李女士' } } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.data.revision, 2);
    assert.equal(put.body.data.segments[0].text, 'Good morning, this is David from Trainbench Bank.');
    assert.deepEqual(put.body.data.speaker_names, { rep: '王经理', customer: '李女士' });

    const latest = await ts.api.get(`/api/audio/transcriptions/${original.id}`, { token: rep.token });
    assert.deepEqual([latest.body.data.revision, latest.body.data.latest_revision], [2, 2]);
    const first = await ts.api.get(`/api/audio/transcriptions/${original.id}?revision=1`, { token: rep.token });
    assert.deepEqual(first.body.data.segments, original.segments);
    assert.equal((await ts.api.get(`/api/audio/transcriptions/${original.id}?revision=3`, { token: rep.token })).status, 404);

    const stale = await ts.api.put(`/api/audio/transcriptions/${original.id}/segments`, { token: rep.token, body: { base_revision: 1, segments: original.segments } });
    assert.deepEqual([stale.status, stale.body.error, stale.body.data], [409, 'audio.revision_conflict', null]);
    const bad = await ts.api.put(`/api/audio/transcriptions/${original.id}/segments`, { token: rep.token, body: { base_revision: 2, segments: [{ start: 3, end: 1, text: 'x' }] } });
    assert.deepEqual([bad.status, bad.body.error], [400, 'validation_failed']);
    const other = await ts.user();
    assert.equal((await ts.api.put(`/api/audio/transcriptions/${original.id}/segments`, { token: other.token, body: { base_revision: 2, segments: [] } })).status, 404);

    const report = await ts.api.post('/api/coaching/calls', { token: rep.token, body: { transcription_id: original.id, rep_speaker: 'rep' } });
    assert.equal(report.status, 201, report.text);
    assert.equal(report.body.data.transcript_revision, 2);
    assert.equal(report.body.data.transcription.revision, 2);
    // Run again on the original: its speakers are A and B.
    const again = await ts.api.post('/api/coaching/calls', { token: rep.token, body: { transcription_id: original.id, revision: 1, rep_speaker: 'A' } });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.data.transcript_revision, 1);

    const exported = async (format: string, lang = 'zh-CN') => {
      const r = await fetch(`${ts.url}/api/audio/transcriptions/${original.id}/export?format=${format}&lang=${lang}`, { headers: { authorization: `Bearer ${rep.token}` } });
      assert.equal(r.status, 200, format);
      return { headers: r.headers, bytes: Buffer.from(await r.arrayBuffer()) };
    };
    const srt = await exported('srt');
    assert.match(srt.headers.get('content-disposition')!, /^attachment; filename="[^"]*2026\.srt"; filename\*=UTF-8''%E5%AE%A2%E6%88%B7%E9%80%9A%E8%AF%9D%202026\.srt$/);
    const srtText = srt.bytes.toString('utf8');
    assert.match(srtText, /^1\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\n王经理: Good morning, this is David from Trainbench Bank\./);
    assert.equal((srtText.match(/ --> /g) ?? []).length, edited.filter((s) => s.text.trim()).length);
    const vtt = (await exported('vtt')).bytes.toString('utf8');
    assert.match(vtt, /^WEBVTT\n\n\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}\n<v 王经理>/);
    assert.match(vtt, /<v 李女士>/);
    const txt = (await exported('txt')).bytes.toString('utf8');
    assert.match(txt, /\[00:00 - 00:0\d\] 王经理: Good morning/);
    const docx = await exported('docx');
    assert.equal(docx.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const xml = await (await JSZip.loadAsync(docx.bytes)).file('word/document.xml')!.async('string');
    assert.ok(xml.includes('王经理') && xml.includes('李女士'), 'speaker names in word/document.xml');
    // Unnamed labels in the reader's language; the original revision on request.
    const english = (await fetch(`${ts.url}/api/audio/transcriptions/${original.id}/export?format=txt&lang=en&revision=1`, { headers: { authorization: `Bearer ${rep.token}` } })).text();
    assert.match(await english, /Speaker A: /);
    const bad400 = await ts.api.get(`/api/audio/transcriptions/${original.id}/export?format=pdf`, { token: rep.token });
    assert.deepEqual([bad400.status, bad400.body.error], [400, 'validation_failed']);
  });

});
