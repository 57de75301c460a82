// Voice activity detection before Whisper, over real HTTP: silero VAD through sherpa-onnx (in its child process,
// the generated tiny VAD model), whisper.cpp with the tiny Whisper model, a call spoken by espeak-ng's voices.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_PATH_MISSING } from './audio-fixtures.js';
import { speakerSuite, voiceAt, type Segment } from './speaker-fixtures.js';

/** Seconds a speech region may reach beyond the words in it. */
const VAD_PADDING = 0.25;

describe('VAD before Whisper', { skip: LOCAL_PATH_MISSING }, () => {
  const suite = speakerSuite({ vad: true });

  test('VAD: Whisper hears only speech, and its segments stay on the call timeline', async () => {
    const { call, rep, transcribe } = suite;
    // Without speakers, the installed VAD model finds the speech of a mono call.
    const res = await transcribe(rep.token, call.wav, {});
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.has_speakers, false);
    assert.ok(res.body.data.speech_seconds > 20 && res.body.data.speech_seconds < res.body.data.audio.duration - 3, `speech_seconds ${res.body.data.speech_seconds}`);
    // The VAD pads each speech region (sherpa-onnx's silero settings), so a segment may begin a little before a turn.
    for (const s of res.body.data.segments as Segment[]) assert.ok(voiceAt(call, s, VAD_PADDING), `segment ${JSON.stringify(s)} lies in speech`);
  });
});
