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
import { FEMALE_VOICE, MALE_ENROLMENT_TEXT, monoCall, stereoFromMono, voiceSample, type MonoCall } from './speaker-fixtures.js';

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

describe('speakers of mono calls, voiceprints, revisions and exports', { skip: LOCAL_PATH_MISSING }, () => {
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
    const route = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { name: 'Desk whisper', kind: 'audio', provider: 'local-whisper', model: 'ggml-tiny-test.bin' } });
    assert.equal(route.status, 201, route.text);
    // The tiny models put espeak-ng's two voices about 1.7 apart in cosine distance.
    assert.equal((await setConfig({ audio_local_quality: 'fast', audio_speaker_threshold: 1.4 })).status, 200);
    rep = await ts.user();
  });
  after(() => ts?.close());

  test('models are listed with the kind their own metadata says; a VAD model uploads in chunks', async () => {
    const listed = await ts.api.get('/api/audio/models', { token: ts.adminToken });
    assert.equal(listed.status, 200, listed.text);
    const kinds = Object.fromEntries((listed.body.data as { name: string; kind: string }[]).map((m) => [m.name, m.kind]));
    assert.deepEqual(kinds, { 'embedding-tiny.onnx': 'speaker-embedding', 'ggml-tiny-test.bin': 'whisper', 'segmentation-tiny.onnx': 'speaker-segmentation' });

    const vad = await fs.readFile(models.vad!);
    const sha256 = crypto.createHash('sha256').update(vad).digest('hex');
    const init = await ts.api.post('/api/audio/models', { token: ts.adminToken, body: { filename: 'silero-vad-tiny.onnx', file_size: vad.length, sha256 } });
    assert.equal(init.status, 201, init.text);
    const { upload_id: uploadId, chunk_url: chunkUrl, complete_url: completeUrl } = init.body.data;
    const chunk = await ts.api.post(`${chunkUrl}?upload_id=${uploadId}&chunk_index=0`, { token: ts.adminToken, raw: new Uint8Array(vad), headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(chunk.status, 200, chunk.text);
    const done = await ts.api.post(completeUrl, { token: ts.adminToken });
    assert.equal(done.status, 201, done.text);
    assert.equal(done.body.data.kind, 'vad');
    assert.equal(done.body.data.sha256, sha256);

    // An ONNX file that is none of the kinds is refused at upload, in words.
    const bad = await ts.api.post('/api/audio/models', { token: ts.adminToken, body: { filename: 'plain.onnx', file_size: 20 } });
    await ts.api.post(`${bad.body.data.chunk_url}?upload_id=${bad.body.data.upload_id}&chunk_index=0`, { token: ts.adminToken, raw: crypto.randomBytes(20), headers: { 'content-type': 'application/octet-stream' } });
    const refused = await ts.api.post(bad.body.data.complete_url, { token: ts.adminToken });
    assert.deepEqual([refused.status, refused.body.error], [400, 'audio.invalid_model']);

    const status = await routeStatus();
    assert.equal(status.speakers.available, true, JSON.stringify(status.speakers));
    assert.equal(status.speakers.vad_model, 'silero-vad-tiny.onnx');
    assert.ok(status.decoder.path && status.decoder.source, JSON.stringify(status.decoder));
  });

  test('a mono call (WAV, AMR, M4A) is diarized: each voice gets its own label, in its own turns', async () => {
    for (const file of [call.wav, call.amr, call.m4a]) {
      const res = await transcribe(rep.token, file);
      assert.equal(res.status, 200, `${path.basename(file)}: ${res.text}`);
      const t = res.body.data;
      assert.equal(t.audio.channels, 1);
      assert.equal(t.speaker_method, 'voices', path.basename(file));
      assert.equal(t.has_speakers, true);
      assert.equal(t.capability_degraded, false);
      assert.equal(t.capability_zh, '');
      assert.equal(t.rep_match, null, 'no voiceprint: no rep');
      const voices = labelsByVoice(call, t.segments);
      assert.deepEqual([...voices.keys()].sort(), ['A', 'B'], `${path.basename(file)}: ${JSON.stringify(t.segments)}`);
      assert.equal(voices.get('A'), 'male', 'A opens the call');
      assert.ok(t.speech_seconds > 20 && t.speech_seconds < t.audio.duration, `speech_seconds ${t.speech_seconds}`);
    }
  });

  test('speaker_count: 1 gives one speaker, 0 finds the voices by the threshold; out of range is a 400', async () => {
    const one = await transcribe(rep.token, call.wav, { speaker_count: '1' });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual([...new Set(one.body.data.segments.map((s: Segment) => s.speaker))], ['A']);
    const found = await transcribe(rep.token, call.wav, { speakers: 'true', speaker_count: '0' });
    assert.equal(found.status, 200, found.text);
    // The tiny models are no real speaker model: the threshold finds the two voices and splits off a stray piece or two.
    assert.equal(found.body.data.speaker_method, 'voices');
    assert.ok(new Set(found.body.data.segments.map((s: Segment) => s.speaker)).size >= 2, JSON.stringify(found.body.data.segments));
    for (const bad of ['9', '-1', 'two']) {
      const res = await transcribe(rep.token, call.wav, { speaker_count: bad });
      assert.deepEqual([res.status, res.body.error], [400, 'validation_failed'], bad);
    }
  });

  test('a voiceprint from another sentence of the male voice makes his turns rep, in a mono call and a stereo one with him on the right', async () => {
    assert.deepEqual((await ts.api.get('/api/audio/voiceprint', { token: rep.token })).body.data, { enrolled: false, created_at: null, speech_seconds: null });
    // Too little speech is refused before anything is stored.
    const short = await voiceSample('male', 'Hello there.');
    const tooShort = await ts.api.request('PUT', '/api/audio/voiceprint', { token: rep.token, form: form({}, { name: 'short.wav', data: new Uint8Array(await fs.readFile(short)) }) });
    assert.deepEqual([tooShort.status, tooShort.body.error], [400, 'audio.voiceprint_too_short'], tooShort.text);

    const sample = await voiceSample('male', MALE_ENROLMENT_TEXT);
    const put = await ts.api.request('PUT', '/api/audio/voiceprint', { token: rep.token, form: form({}, { name: 'me.wav', data: new Uint8Array(await fs.readFile(sample)) }) });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.data.enrolled, true);
    assert.ok(put.body.data.speech_seconds >= 8, put.text);
    const row = await ts.server.db('audio_voiceprints').where({ user_id: rep.id }).first();
    assert.ok(Array.isArray(JSON.parse(row.embedding)), 'only the embedding is stored');
    assert.deepEqual(await fs.readdir(path.join(ts.dataDir, 'audio', 'voiceprints')).catch(() => []), [], 'no audio is kept');

    const mono = await transcribe(rep.token, call.wav);
    assert.equal(mono.status, 200, mono.text);
    const voices = labelsByVoice(call, mono.body.data.segments);
    assert.equal(voices.get('rep'), 'male', JSON.stringify(mono.body.data.segments));
    assert.equal(voices.get('customer'), 'female');
    assert.equal(mono.body.data.rep_match.speaker, 'rep');
    assert.ok(mono.body.data.rep_match.similarity >= 0.5, JSON.stringify(mono.body.data.rep_match));

    const stereo = await transcribe(rep.token, await stereoFromMono(call, 'right'));
    assert.equal(stereo.status, 200, stereo.text);
    assert.equal(stereo.body.data.speaker_method, 'channels');
    const stereoVoices = labelsByVoice(call, stereo.body.data.segments);
    assert.equal(stereoVoices.get('rep'), 'male', `the rep is found on the right channel: ${JSON.stringify(stereo.body.data.segments)}`);
    assert.equal(stereoVoices.get('customer'), 'female');

    // Another user's voiceprint is theirs alone: without one, labels stay A/B.
    const other = await ts.user();
    const theirs = await transcribe(other.token, call.wav);
    assert.deepEqual([...labelsByVoice(call, theirs.body.data.segments).keys()].sort(), ['A', 'B']);

    const removed = await ts.api.request('DELETE', '/api/audio/voiceprint', { token: rep.token });
    assert.equal(removed.status, 200);
    assert.deepEqual((await ts.api.get('/api/audio/voiceprint', { token: rep.token })).body.data, { enrolled: false, created_at: null, speech_seconds: null });
    assert.equal(await ts.server.db('audio_voiceprints').where({ user_id: rep.id }).first(), undefined);
    const after = await transcribe(rep.token, call.wav);
    assert.equal(after.body.data.rep_match, null);
  });

  test('an edit is revision 2; revision 1 stays the original; a stale save is a 409; coaching analyses revision 2; exports carry names and times', async () => {
    const res = await transcribe(rep.token, call.wav);
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
    assert.match(srt.headers.get('content-disposition')!, /attachment; filename="call.srt"/);
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

  test('a file name in any language reaches Content-Disposition', async () => {
    const res = await ts.api.request('POST', '/api/audio/transcribe', { token: rep.token, form: form({}, { name: '客户通话 2026.wav', data: new Uint8Array(await fs.readFile(call.wav)) }) });
    assert.equal(res.status, 200, res.text);
    const r = await fetch(`${ts.url}/api/audio/transcriptions/${res.body.data.id}/export?format=txt`, { headers: { authorization: `Bearer ${rep.token}` } });
    assert.match(r.headers.get('content-disposition')!, /filename\*=UTF-8''%E5%AE%A2%E6%88%B7%E9%80%9A%E8%AF%9D%202026\.txt/);
  });

  test('a model of random bytes, or an ONNX file without metadata, leaves the server up and speakers unavailable in plain words', async () => {
    await fs.writeFile(path.join(modelsDir(), 'random.onnx'), crypto.randomBytes(64 * 1024));
    await fs.copyFile(models.vad!, path.join(modelsDir(), 'no-metadata.onnx'));
    for (const [name, why] of [
      ['random.onnx', /neither a ggml Whisper model nor an ONNX model/],
      ['no-metadata.onnx', /not a speaker-segmentation model/],
    ] as const) {
      assert.equal((await setConfig({ audio_speaker_segmentation_model: name })).status, 200);
      const status = await routeStatus();
      assert.equal(status.available, true, 'the route still transcribes');
      assert.equal(status.speakers.available, false);
      assert.match(status.speakers.reason_unavailable, why);
      const res = await transcribe(rep.token, call.wav);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.has_speakers, false);
      assert.equal(res.body.data.capability_degraded, true);
      assert.match(res.body.data.capability_zh, /未进行说话人分离/);
      assert.equal((await ts.api.get('/api/health')).status, 200);
    }
    // A model whose metadata claims the kind but that sherpa-onnx cannot load ends only the child process.
    const broken = Buffer.concat([await fs.readFile(models.segmentation)]);
    await fs.writeFile(path.join(modelsDir(), 'truncated-segmentation.onnx'), broken.subarray(0, Math.floor(broken.length * 0.7)));
    await setConfig({ audio_speaker_segmentation_model: 'truncated-segmentation.onnx' });
    const status = await routeStatus();
    assert.equal(status.speakers.available, false);
    assert.ok(status.speakers.reason_unavailable.length > 0);
    assert.equal((await ts.api.get('/api/health')).status, 200);
    await setConfig({ audio_speaker_segmentation_model: '' });
    assert.equal((await routeStatus()).speakers.available, true, 'back with the good model');
  });

  test('VAD: Whisper hears only speech, on the call timeline; Chinese comes out Simplified unless told otherwise', async () => {
    // Without speakers, the installed VAD model finds the speech of a mono call.
    const res = await transcribe(rep.token, call.wav, {});
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.has_speakers, false);
    assert.ok(res.body.data.speech_seconds > 20 && res.body.data.speech_seconds < res.body.data.audio.duration - 3, `speech_seconds ${res.body.data.speech_seconds}`);
    for (const s of res.body.data.segments as Segment[]) assert.ok(voiceAt(call, s), `segment ${JSON.stringify(s)} lies in speech`);
    assert.equal(FEMALE_VOICE, 'en+f3');
  });
});
