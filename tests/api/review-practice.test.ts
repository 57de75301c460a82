// Practice items become review cards (docs/api/review.md): a coaching report's misstated facts land on the rep's
// review list through the practice-item mechanism (coaching, and compliance through the same one) and each becomes a
// card the rep recalls and rates themself, `easy` included, scheduled as ts-fsrs schedules that rating.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createEmptyCard, fsrs, generatorParameters, Rating } from 'ts-fsrs';
import { startTestServer, type TestServer } from '../support/server.js';
import { TestClock } from '../support/test-clock.js';
import type { FakeModel } from '../support/fake-model.js';
import type { ReviewAnswerResult, ReviewQueue } from '../../contract/review.js';
import { form } from './media-fixtures.js';
import { stereoCall } from './audio-fixtures.js';
import { useFakeModel } from './workbench.fixtures.js';
import { TURNS, approveHandbook } from './coaching-fixtures.js';
import { FIXTURE_TOOLS_SKIP } from '../support/tools.js';

const FIXTURE_TOOLS_MISSING = FIXTURE_TOOLS_SKIP;
const scheduler = fsrs(generatorParameters({ request_retention: 0.9, enable_fuzz: false }));

describe('practice items become review cards', { skip: FIXTURE_TOOLS_MISSING }, () => {
  let ts: TestServer;
  let fake: FakeModel;
  let clock: TestClock;
  let rep: { id: number; token: string };
  let reportItems: { id: number; label: string; correct: string }[];

  before(async () => {
    clock = TestClock.start();
    ts = await startTestServer();
    let call: Awaited<ReturnType<typeof stereoCall>>;
    [fake, call] = await Promise.all([useFakeModel(ts), stereoCall(TURNS.map((t) => ({ ...t })))]);
    rep = await ts.user();
    await approveHandbook(ts);
    const route = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { kind: 'audio', name: 'Cloud STT', provider: 'openai-compatible', base_url: fake.baseUrl, model: 'whisper-1', is_local: false } });
    assert.equal(route.status, 201, route.text);
    fake.behave({ transcription: { text: TURNS.map((t) => t.text).join(' '), language: 'en', segments: call.turns.map((t) => ({ start: t.start, end: t.end, text: t.text, speaker: t.side })) } });
    const transcribed = await ts.api.post('/api/audio/transcribe', { token: rep.token, form: form({ speakers: 'true', channels: 'rep,customer' }, { name: path.basename(call.file), data: new Uint8Array(await fs.readFile(call.file)) }) });
    assert.equal(transcribed.status, 200, transcribed.text);
    const report = await ts.api.post('/api/coaching/calls', { token: rep.token, body: { transcription_id: transcribed.body.data.id, rep_speaker: 'rep' } });
    // The review clock a second after the report was made (its items' cards are due when made).
    clock.set(Date.now() + 1000);
    assert.equal(report.status, 201, report.text);
    reportItems = report.body.data.review_items;
    assert.ok(reportItems.length >= 2, 'the misstated commission and risk level');
  });
  after(async () => {
    await fake?.close();
    await ts?.close();
    clock?.stop();
  });

  test('each practice item is a new card due now, answered with a self-rating', async () => {
    const queue = (await ts.api.get('/api/review/queue', { token: rep.token })).body.data as ReviewQueue;
    // The report's items, each one card (the call's automatic compliance inspection may add its own beside them).
    const labels = new Set(reportItems.map((i) => i.label));
    const practice = queue.items.filter((i) => i.kind === 'practice' && labels.has(i.practice!.title));
    assert.equal(practice.length, reportItems.length);
    assert.deepEqual(practice.map((i) => i.practice!.title).sort(), reportItems.map((i) => i.label).sort());
    assert.ok(practice.every((i) => i.question === null && i.retrievability === 1));

    const card = practice[0]!;
    const noRating = await ts.api.post('/api/review/answers', { token: rep.token, body: { card_id: card.card_id, answer: 'A' } });
    assert.equal(noRating.status, 400);
    assert.equal(noRating.body.error, 'review.practice_needs_rating');
    assert.equal((await ts.api.post('/api/review/answers', { token: rep.token, body: { card_id: card.card_id, rating: 'perfect' } })).status, 400);

    const at = new Date(Date.now() + 60_000);
    clock.set(at);
    const easy = await ts.api.post('/api/review/answers', { token: rep.token, body: { card_id: card.card_id, rating: 'easy' } });
    assert.equal(easy.status, 200, easy.text);
    const result = easy.body.data as ReviewAnswerResult;
    assert.equal(result.correct, null);
    assert.equal(result.rating, 'easy');
    const item = reportItems.find((i) => i.label === card.practice!.title)!;
    assert.equal(result.correct_answer, item.correct);
    // What 显示答案 shows before the rating: the item's correct statement, already in the queue.
    assert.equal(card.practice!.correct, item.correct);
    const expected = scheduler.next(createEmptyCard(at), at, Rating.Easy).card;
    assert.equal(result.card.due, expected.due.toISOString());
    assert.equal(result.card.state, 'review');
    const after = (await ts.api.get('/api/review/queue', { token: rep.token })).body.data as ReviewQueue;
    assert.ok(!after.items.some((i) => i.card_id === card.card_id));
  });
});
