// The rebuild's replay of a log as the database aggregates it (server/review/scheduler.ts replayAggregated) gives
// the card that replaying the same events as objects gives, ts-fsrs on both sides: in the stored shape, at the ends
// of months and years, out of order, in other shapes of time, with made-card events, and with no events at all.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { replay, replayAggregated, schedulerFor, toColumns, type LoggedReview } from '../../server/review/scheduler.js';

const scheduler = schedulerFor(0.9);

/** What a rebuild did before: events as objects, made at the earlier of the card's birth and its first event. */
function expected(createdAt: string, events: LoggedReview[]) {
  const first = events.reduce((min, r) => (r.reviewed_at < min ? r.reviewed_at : min), createdAt);
  return toColumns(replay(scheduler, first, events));
}
const aggregated = (events: LoggedReview[]) => (events.length ? events.map((e) => `${e.rating}${e.reviewed_at}`).join(',') : null);
const check = (createdAt: string, events: LoggedReview[]) =>
  assert.deepEqual(toColumns(replayAggregated(scheduler, createdAt, aggregated(events))), expected(createdAt, events), JSON.stringify(events));

describe('replaying an aggregated log', () => {
  test('stored instants, including the ends of months, leap days and the turn of a year', () => {
    const times = ['2024-01-31T23:59:59.999Z', '2024-02-29T08:00:00.000Z', '2024-03-01T00:00:00.001Z', '2024-04-30T12:30:00.500Z', '2024-12-31T23:00:00.000Z', '2025-01-01T00:00:00.000Z'];
    check('2024-01-01T00:00:00.000Z', times.map((reviewed_at, i) => ({ rating: [1, 3, 3, 2, 4, 1][i]!, reviewed_at })));
    // Made after its first event (a card that came down later): the first event is its birth.
    check('2025-06-01T00:00:00.000Z', times.map((reviewed_at) => ({ rating: 3, reviewed_at })));
  });

  test('a made-card event (rating 0), and a card with no events, is new and due when made', () => {
    check('2024-05-05T05:05:05.005Z', [{ rating: 0, reviewed_at: '2024-05-05T05:05:05.005Z' }]);
    check('2024-05-05T05:05:05.005Z', []);
    // Stored here after it was made elsewhere: due at its made-card event, the earlier.
    check('2025-06-01T00:00:00.000Z', [{ rating: 0, reviewed_at: '2024-05-05T05:05:05.005Z' }]);
    assert.equal(toColumns(replayAggregated(scheduler, '2024-05-05T05:05:05.005Z', null)).due, '2024-05-05T05:05:05.005Z');
  });

  test('out of order, or in another shape of time, it is replayed as the objects are', () => {
    check('2024-01-01T00:00:00.000Z', [{ rating: 1, reviewed_at: '2024-03-01T00:00:00.000Z' }, { rating: 3, reviewed_at: '2024-02-01T00:00:00.000Z' }]);
    check('2024-01-01T00:00:00.000Z', [{ rating: 1, reviewed_at: '2024-02-01T08:00:00+08:00' }, { rating: 3, reviewed_at: '2024-02-03T00:00:00.000Z' }]);
    check('2024-01-01T00:00:00Z', [{ rating: 1, reviewed_at: '2024-02-01T00:00:00.000Z' }, { rating: 4, reviewed_at: '2024-02-09T00:00:00.000Z' }]);
  });
});
