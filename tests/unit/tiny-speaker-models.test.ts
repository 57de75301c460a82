// The generated speaker models load in sherpa-onnx (in a child process, as the server runs it) and do what they are
// made for: find the turns of a mono call by energy and tell espeak-ng's male and female voices apart.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runSherpa } from '../../server/audio/speakers/sherpa-runner.js';
import { writeTinySpeakerModels } from '../support/tiny-speaker-models.js';
import { LOCAL_PATH_MISSING } from '../api/audio-fixtures.js';
import { coverage, MALE_ENROLMENT_TEXT, monoCall, voiceSample, type MonoCall } from '../api/speaker-fixtures.js';

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((v, i) => {
    dot += v * b[i]!;
    na += v * v;
    nb += b[i]! * b[i]!;
  });
  return dot / Math.sqrt(na * nb);
};

describe('tiny speaker models', { skip: LOCAL_PATH_MISSING }, () => {
  let dir: string;
  let models: Awaited<ReturnType<typeof writeTinySpeakerModels>>;
  let call: MonoCall;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tiny-speakers-'));
    models = await writeTinySpeakerModels(dir);
    call = await monoCall();
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  test('they load with the metadata sherpa-onnx requires', async () => {
    const loaded = await runSherpa({ type: 'load', segmentation: models.segmentation, embedding: models.embedding, vad: models.vad });
    assert.equal(loaded.sample_rate, 16_000);
    assert.ok((loaded.dim ?? 0) > 0);
  });

  test('diarization of a mono call finds each turn and gives the two voices two speakers', async () => {
    const { segments } = await runSherpa({ type: 'diarize', wav: call.wav, segmentation: models.segmentation, embedding: models.embedding, speakers: 2, threshold: 0.8, threads: 1, embed: false });
    const labelled = segments.map((s) => ({ ...s, speaker: String(s.speaker) }));
    const voiceOf = new Map<string, string>();
    for (const turn of call.turns) {
      const best = ['0', '1'].map((speaker) => [speaker, coverage(labelled, speaker, turn.start, turn.end)] as const).sort((a, b) => b[1] - a[1])[0]!;
      assert.ok(best[1] > 0.6, `turn at ${turn.start}-${turn.end} is mostly one speaker (${best[1]}): ${JSON.stringify(segments)}`);
      const known = voiceOf.get(turn.voice);
      if (known) assert.equal(best[0], known, `every ${turn.voice} turn has the same speaker`);
      voiceOf.set(turn.voice, best[0]);
    }
    assert.notEqual(voiceOf.get('male'), voiceOf.get('female'));
  });

  test('embeddings of one voice are close, of the two voices far apart; VAD finds the turns', async () => {
    const sample = await voiceSample('male', MALE_ENROLMENT_TEXT);
    const [enrolled] = (await runSherpa({ type: 'embed', embedding: models.embedding, items: [{ wav: sample, ranges: [] }], threads: 1 })).embeddings;
    const items = call.turns.map((t) => ({ wav: call.wav, ranges: [{ start: t.start, end: t.end }] }));
    const { embeddings } = await runSherpa({ type: 'embed', embedding: models.embedding, items, threads: 1 });
    call.turns.forEach((turn, i) => {
      const similarity = cosine(enrolled!, embeddings[i]!);
      if (turn.voice === 'male') assert.ok(similarity > 0.6, `male turn ${i}: ${similarity}`);
      else assert.ok(similarity < 0.2, `female turn ${i}: ${similarity}`);
    });
    const { regions } = await runSherpa({ type: 'vad', wav: call.wav, vad: models.vad! });
    for (const turn of call.turns) assert.ok(coverage(regions.map((r) => ({ ...r, speaker: 'speech' })), 'speech', turn.start, turn.end) > 0.8, `VAD covers ${turn.start}-${turn.end}: ${JSON.stringify(regions)}`);
  });

  test('a broken model ends only the child, with a plain reason', async () => {
    const random = path.join(dir, 'random.onnx');
    await fs.writeFile(random, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
    await assert.rejects(runSherpa({ type: 'load', segmentation: random, embedding: models.embedding }), (err: Error) => err.name === 'SherpaFailed' && err.message.length > 0);
    // An ONNX model without the metadata (the VAD model as a segmentation model): sherpa-onnx exits its process.
    await assert.rejects(runSherpa({ type: 'load', segmentation: models.vad!, embedding: models.embedding }), (err: Error) => {
      assert.equal(err.name, 'SherpaFailed');
      return true;
    });
    const loaded = await runSherpa({ type: 'load', segmentation: models.segmentation, embedding: models.embedding });
    assert.equal(loaded.sample_rate, 16_000, 'the next run works');
  });
});
