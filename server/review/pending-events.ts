// Exam submits' review events, derived after the submit's commit (docs/api/review.md, "When cards appear"). The
// submit's transaction writes one fact row per submit (review_pending); the cards are derived from those rows just
// after, in batches, each batch in one transaction that also deletes its rows: a kill before it commits leaves the
// rows to the next start. Every review read of a person first applies that person's pending rows, so what they see
// is what deriving at once would have given (and what a replay of the log gives).
import type { Knex } from 'knex';
import { isPostgres, type Db } from '../db/knex.js';
import { insertJsonRows, type Columns } from '../db/json-rows.js';
import { reviewEventsOfSubmits, type AnsweredSubmit } from './review.events.js';
import type { LogOrigin } from './cards.repository.js';

interface PendingRow {
  user_id: number;
  session_id: string;
  paper_id: number | null;
  origin: string;
  at: string;
  answers: string;
}

const PENDING_COLUMNS: Columns<PendingRow> = [['user_id', 'integer'], ['session_id', 'text'], ['paper_id', 'integer'], ['origin', 'text'], ['at', 'text'], ['answers', 'text']];

/** Stores the submits' answers for derivation, in the submit's transaction: one row a submit, one statement for all. */
export async function queueReviewEvents(db: Db, submits: AnsweredSubmit[]): Promise<void> {
  const rows = submits
    .filter((s) => s.answers.length)
    .map((s): PendingRow => ({ user_id: s.user_id, session_id: s.session_id, paper_id: s.paper_id, origin: s.origin, at: s.at, answers: JSON.stringify(s.answers.map((a) => [a.question_id, a.correct ? 1 : 0, a.answer ?? null])) }));
  for (let i = 0; i < rows.length; i += 500) await insertJsonRows(db, 'review_pending', PENDING_COLUMNS, rows.slice(i, i + 500));
}

/** Submits derived in one transaction: a batch holds the (single SQLite) connection no longer than a submit batch does. */
const BATCH = 64;
/**
 * How long after a submit's commit its review events are derived at the latest (a read of the person's derives at
 * once): 100 ms unless the server's REVIEW_DERIVE_AFTER_MS says otherwise (setDerivationDelay).
 */
const DERIVE_AFTER_MS = 100;
const delays = new WeakMap<object, number>();

/** The database's derivation delay (createApp, from the configuration). */
export function setDerivationDelay(db: Knex, ms: number): void {
  delays.set(db.client.config, ms);
}
/** Any number that no other advisory lock of ours uses: one derivation at a time across the nodes of a cluster. */
const DERIVATION_LOCK = 0x7e71e3;

const toAnswered = (row: PendingRow & { id: number | string }): AnsweredSubmit => ({
  session_id: row.session_id,
  paper_id: row.paper_id === null ? null : Number(row.paper_id),
  origin: row.origin as LogOrigin,
  user_id: Number(row.user_id),
  at: row.at,
  answers: (JSON.parse(row.answers) as [number, number, unknown][]).map(([question_id, correct, answer]) => ({ question_id, correct: correct === 1, answer })),
});

/**
 * Consecutive runs of submits with no person twice: a person's second submit is derived after the first has moved
 * their cards, as it would have been had each been derived at its own commit.
 */
function waves(submits: AnsweredSubmit[]): AnsweredSubmit[][] {
  const out: AnsweredSubmit[][] = [];
  let wave: AnsweredSubmit[] = [];
  let people = new Set<number>();
  for (const s of submits) {
    if (people.has(s.user_id)) {
      out.push(wave);
      wave = [];
      people = new Set();
    }
    wave.push(s);
    people.add(s.user_id);
  }
  if (wave.length) out.push(wave);
  return out;
}

/** Derives the oldest batch of pending submits; returns how many there were. */
async function deriveBatch(db: Db): Promise<number> {
  return db.transaction(async (trx) => {
    // Several nodes derive one after another; the rows each takes are then those no other has committed yet.
    if (isPostgres(trx)) await trx.raw('SELECT pg_advisory_xact_lock(?)', [DERIVATION_LOCK]);
    const rows = (await trx('review_pending').orderBy('id').limit(BATCH).select('id', ...PENDING_COLUMNS.map(([name]) => name))) as (PendingRow & { id: number | string })[];
    if (!rows.length) return 0;
    for (const wave of waves(rows.map(toAnswered))) await reviewEventsOfSubmits(trx, wave);
    await trx('review_pending').whereIn('id', rows.map((r) => r.id)).del();
    return rows.length;
  });
}

interface Deriver {
  /** Derives whatever is pending now (and what arrives meanwhile); one drain at a time, callers share it. */
  drain(): Promise<void>;
  /** Starts a drain in the background (after a submit's commit). */
  kick(): void;
  /** Resolves once no drain is running (for a clean stop). */
  idle(): Promise<void>;
}

const derivers = new WeakMap<object, Deriver>();

/** One deriver per database (tests and tools may open several in one process). */
function deriverOf(db: Knex): Deriver {
  let deriver = derivers.get(db.client.config);
  if (deriver) return deriver;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const drain = (): Promise<void> => {
    if (!running) {
      running = (async () => {
        while ((await deriveBatch(db)) === BATCH);
      })().finally(() => (running = null));
      return running;
    }
    // The running drain may have read the table before the caller's rows were committed: one more after it.
    next ??= running.catch(() => undefined).then(() => {
      next = null;
      return drain();
    });
    return next;
  };
  let timer: NodeJS.Timeout | null = null;
  const drainLogged = (): void => {
    drain().catch((err: unknown) => {
      // The rows stay pending: the next submit, review read or start derives them.
      if (process.env.NODE_ENV !== 'test') console.error('[review] deriving submits’ review events failed', err);
    });
  };
  // Submits committed within DERIVE_AFTER_MS of each other are derived together: fewer, larger transactions.
  const kick = (): void => {
    timer ??= setTimeout(() => {
      timer = null;
      drainLogged();
    }, delays.get(db.client.config) ?? DERIVE_AFTER_MS);
  };
  const idle = async (): Promise<void> => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
      drainLogged();
    }
    while (running || next) await (next ?? running)!.catch(() => undefined);
  };
  deriver = { drain, kick, idle };
  derivers.set(db.client.config, deriver);
  return deriver;
}

/** After a submit's commit: its review events are derived in the background. */
export const deriveReviewEventsSoon = (db: Knex): void => deriverOf(db).kick();

/** Resolves once the background derivation has stopped (before the database is closed). */
export const reviewDerivationIdle = (db: Knex): Promise<void> => deriverOf(db).idle();

/**
 * Applies pending submits before a review read: a person's (their queue, cards, answers, self-test), or everyone's
 * without `userId` (stats, sync). Costs one index lookup when nothing of theirs is pending. Inside a transaction the
 * rows are derived in it (a savepoint); otherwise the caller joins the shared drain.
 */
export async function applyPendingReviewEvents(db: Db, userId?: number): Promise<void> {
  const query = db('review_pending').first('id');
  const pending = await (userId === undefined ? query : query.where({ user_id: userId }));
  if (!pending) return;
  if (db.isTransaction) {
    while ((await deriveBatch(db)) === BATCH);
  } else await deriverOf(db as Knex).drain();
}
