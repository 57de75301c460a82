// Speakers of mono calls, voiceprints, transcript revisions and exports, over real HTTP: sherpa-onnx (in its child
// process) with the generated tiny speaker models, whisper.cpp with the tiny Whisper model, calls spoken by
// espeak-ng's male and female voices.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { LOCAL_PATH_MISSING } from './audio-fixtures.js';
import { labelsByVoice, speakerSuite } from './speaker-fixtures.js';

describe('speakers of mono calls by voice', { skip: LOCAL_PATH_MISSING }, () => {
  const suite = speakerSuite();

  test('a mono call (WAV, AMR, M4A) is diarized: each voice gets its own label, in its own turns', async () => {
    const { ts, call, rep, models, modelsDir, transcribe, setConfig, routeStatus } = suite;
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

});
