// Speakers of mono calls, voiceprints, transcript revisions and exports, over real HTTP: sherpa-onnx (in its child
// process) with the generated tiny speaker models, whisper.cpp with the tiny Whisper model, calls spoken by
// espeak-ng's male and female voices.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { LOCAL_PATH_MISSING } from './audio-fixtures.js';
import { speakerSuite, type Segment } from './speaker-fixtures.js';

describe('speaker models: kinds, upload, speaker_count, broken models', { skip: LOCAL_PATH_MISSING }, () => {
  const suite = speakerSuite();

  test('models are listed with the kind their own metadata says; a VAD model uploads in chunks', async () => {
    const { ts, call, rep, models, modelsDir, transcribe, setConfig, routeStatus } = suite;
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

  test('speaker_count: 1 gives one speaker, 0 finds the voices by the threshold; out of range is a 400', async () => {
    const { ts, call, rep, models, modelsDir, transcribe, setConfig, routeStatus } = suite;
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

  test('a model of random bytes, or an ONNX file without metadata, leaves the server up and speakers unavailable in plain words', async () => {
    const { ts, call, rep, models, modelsDir, transcribe, setConfig, routeStatus } = suite;
    await fs.writeFile(path.join(modelsDir(), 'random.onnx'), crypto.randomBytes(64 * 1024));
    await fs.copyFile(models.vad!, path.join(modelsDir(), 'no-metadata.onnx'));
    const wrongKind = { code: 'named_wrong_kind', kind: 'speaker-segmentation', parameter: 'audio_speaker_segmentation_model' };
    for (const [name, why, problem] of [
      ['random.onnx', /neither a ggml Whisper model nor an ONNX model/, { ...wrongKind, model: 'random.onnx', found: null, problem: { code: 'not_a_model' } }],
      ['no-metadata.onnx', /not a speaker-segmentation model/, { ...wrongKind, model: 'no-metadata.onnx', found: 'vad', problem: null }],
    ] as const) {
      assert.equal((await setConfig({ audio_speaker_segmentation_model: name })).status, 200);
      const status = await routeStatus();
      assert.equal(status.available, true, 'the route still transcribes');
      assert.equal(status.speakers.available, false);
      assert.match(status.speakers.reason_unavailable, why);
      // The same reason as a code and its parameters, for the interface to word in the reader's language.
      assert.deepEqual(status.speakers.problems, [problem]);
      if (name === 'random.onnx') {
        const res = await transcribe(rep.token, call.wav);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.data.has_speakers, false);
        assert.equal(res.body.data.capability_degraded, true);
        assert.match(res.body.data.capability_zh, /未进行说话人分离/);
      }
      assert.equal((await ts.api.get('/api/health')).status, 200);
    }
    // A segmentation model cut short leaves speakers unavailable with the reason, and the server up.
    const broken = Buffer.concat([await fs.readFile(models.segmentation)]);
    await fs.writeFile(path.join(modelsDir(), 'truncated-segmentation.onnx'), broken.subarray(0, Math.floor(broken.length * 0.7)));
    await setConfig({ audio_speaker_segmentation_model: 'truncated-segmentation.onnx' });
    const status = await routeStatus();
    assert.equal(status.speakers.available, false);
    assert.ok(status.speakers.reason_unavailable.length > 0);
    // Its ONNX no longer parses: it is refused by its kind, before sherpa-onnx is asked to load it.
    assert.deepEqual(status.speakers.problems, [{ ...wrongKind, model: 'truncated-segmentation.onnx', found: null, problem: { code: 'not_a_model' } }]);
    assert.equal((await ts.api.get('/api/health')).status, 200);
    await setConfig({ audio_speaker_segmentation_model: '' });
    assert.equal((await routeStatus()).speakers.available, true, 'back with the good model');
  });

});
