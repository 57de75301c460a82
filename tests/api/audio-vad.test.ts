// Speakers of mono calls, voiceprints, transcript revisions and exports, over real HTTP: sherpa-onnx (in its child
// process) with the generated tiny speaker models, whisper.cpp with the tiny Whisper model, calls spoken by
// espeak-ng's male and female voices.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_PATH_MISSING } from './audio-fixtures.js';
import { FEMALE_VOICE, speakerSuite, voiceAt, type Segment } from './speaker-fixtures.js';

/** Seconds a speech region may reach beyond the words in it. */
const VAD_PADDING = 0.25;

describe('VAD before Whisper', { skip: LOCAL_PATH_MISSING }, () => {
  const suite = speakerSuite({ vad: true });

  test('VAD: Whisper hears only speech, on the call timeline; Chinese comes out Simplified unless told otherwise', async () => {
    const { ts, call, rep, models, modelsDir, transcribe, setConfig, routeStatus } = suite;
    // Without speakers, the installed VAD model finds the speech of a mono call.
    const res = await transcribe(rep.token, call.wav, {});
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.has_speakers, false);
    assert.ok(res.body.data.speech_seconds > 20 && res.body.data.speech_seconds < res.body.data.audio.duration - 3, `speech_seconds ${res.body.data.speech_seconds}`);
    // The VAD pads each speech region (sherpa-onnx's silero settings), so a segment may begin a little before a turn.
    for (const s of res.body.data.segments as Segment[]) assert.ok(voiceAt(call, s, VAD_PADDING), `segment ${JSON.stringify(s)} lies in speech`);
    assert.equal(FEMALE_VOICE, 'en+f3');
  });
});
