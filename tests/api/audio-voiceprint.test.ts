// Speakers of mono calls, voiceprints, transcript revisions and exports, over real HTTP: sherpa-onnx (in its child
// process) with the generated tiny speaker models, whisper.cpp with the tiny Whisper model, calls spoken by
// espeak-ng's male and female voices.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { form } from './media-fixtures.js';
import { LOCAL_PATH_MISSING } from './audio-fixtures.js';
import { labelsByVoice, MALE_ENROLMENT_TEXT, speakerSuite, stereoFromMono, voiceSample } from './speaker-fixtures.js';

describe('voiceprints', { skip: LOCAL_PATH_MISSING }, () => {
  const suite = speakerSuite();

  test('a voiceprint from another sentence of the male voice makes his turns rep, in a mono call and a stereo one with him on the right', async () => {
    const { ts, call, rep, models, modelsDir, transcribe, setConfig, routeStatus } = suite;
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

    // Another user's voiceprint is theirs alone.
    const other = await ts.user();
    assert.equal((await ts.api.get('/api/audio/voiceprint', { token: other.token })).body.data.enrolled, false);

    const removed = await ts.api.request('DELETE', '/api/audio/voiceprint', { token: rep.token });
    assert.equal(removed.status, 200);
    assert.deepEqual((await ts.api.get('/api/audio/voiceprint', { token: rep.token })).body.data, { enrolled: false, created_at: null, speech_seconds: null });
    assert.equal(await ts.server.db('audio_voiceprints').where({ user_id: rep.id }).first(), undefined);
  });

});
