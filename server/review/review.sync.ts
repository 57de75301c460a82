// Spaced review across machines (docs/sync.md, "Spaced review"): the review log goes up once per event (change id =
// the event's gid) and the central server rebuilds each card by replaying its whole log; cards come down with their
// log, and the laptop replays the union of its own events and central's, so it ends where central will.
import type { Db } from '../db/knex.js';
import type { PushResult } from '../../contract/sync.js';
import type { PracticePrompt, PushedReviewLog } from '../../contract/review.js';
import { now } from '../db/time.js';
import { parseJson, toBool } from '../db/rows.js';
import { gidMap } from '../sync/entities.js';
import { readEnrolment } from '../sync/branch/state.js';
import { appendLog, cardsByGid, insertCards, rebuildCards, type LogOrigin, type NewLogRow } from './cards.repository.js';
import { schedulerOfSystem } from './review.parameters.js';

type Row = Record<string, unknown>;

// ---- branch, up: events written here are queued in the transaction that writes them (an enrolled branch only)

/** Queues the events (by gid) for the next push; events from before the enrolment stay local, like records. */
export async function queueReviewLogUp(db: Db, gids: string[]): Promise<void> {
  if (!gids.length || !(await readEnrolment(db))) return;
  const stamp = now();
  for (let i = 0; i < gids.length; i += 500) {
    const rows = (await db('review_log as l')
      .join('review_cards as c', 'c.id', 'l.card_id')
      .join('users as u', 'u.id', 'c.user_id')
      .leftJoin('questions as q', 'q.id', 'c.question_id')
      .whereIn('l.gid', gids.slice(i, i + 500))
      .select('l.*', 'c.gid as card_gid', 'c.kind', 'c.prompt', 'c.created_at as card_created_at', 'u.gid as user_gid', 'q.gid as question_gid')) as Row[];
    const changes = rows.map((r) => {
      const data: PushedReviewLog = {
        gid: String(r.gid),
        card: {
          gid: String(r.card_gid), user_gid: String(r.user_gid), kind: r.kind as PushedReviewLog['card']['kind'], question_gid: (r.question_gid as string | null) ?? null,
          prompt: r.prompt ? parseJson<PracticePrompt | null>(r.prompt, null) : null, created_at: String(r.card_created_at),
        },
        rating: Number(r.rating), reviewed_at: String(r.reviewed_at), origin: String(r.origin), correct: r.correct === null ? null : toBool(r.correct),
        answer: r.answer === null ? null : parseJson(String(r.answer), null),
      };
      return { change_id: data.gid, entity: 'review_log', row_id: Number(r.id), payload: JSON.stringify(data), created_at: stamp };
    });
    if (changes.length) await db('sync_outbox').insert(changes).onConflict('change_id').ignore();
  }
}

// ---- central, up: cards made where missing, events appended once, the touched cards replayed

interface Change {
  change_id: string;
  data: PushedReviewLog;
}

export async function receiveReviewLog({ db }: { db: Db }, changes: Change[]): Promise<PushResult[]> {
  const users = (await gidMap(db, 'users', 'gid', changes.map((c) => c.data.card.user_gid))) as Map<string, number>;
  const questions = (await gidMap(db, 'questions', 'gid', changes.map((c) => c.data.card.question_gid))) as Map<string, number>;
  const results = new Map<string, PushResult>();
  const usable: Change[] = [];
  for (const change of changes) {
    const { card } = change.data;
    const unknown = !users.has(card.user_gid) ? `user ${card.user_gid}` : card.kind === 'question' && !questions.has(card.question_gid ?? '') ? `question ${card.question_gid}` : null;
    if (unknown) results.set(change.change_id, { change_id: change.change_id, outcome: 'conflict', reason: `${unknown} is not known centrally` });
    else usable.push(change);
  }
  const stamp = now();
  await insertCards(
    db,
    [...new Map(usable.map(({ data: { card } }) => [card.gid, card])).values()].map((card) => ({
      gid: card.gid, user_id: users.get(card.user_gid)!, kind: card.kind, question_id: card.question_gid ? questions.get(card.question_gid)! : null, practice_item_id: null,
      prompt: card.prompt ? JSON.stringify(card.prompt) : null, due: card.created_at, created_at: card.created_at, updated_at: stamp,
    })),
  );
  const cards = await cardsByGid(db, usable.map((c) => c.data.card.gid));
  const rows: NewLogRow[] = [];
  for (const { change_id, data } of usable) {
    const card = cards.get(data.card.gid);
    if (!card || card.user_id !== users.get(data.card.user_gid)) {
      results.set(change_id, { change_id, outcome: 'conflict', reason: `card ${data.card.gid} belongs to another user` });
      continue;
    }
    rows.push({
      gid: data.gid, card_id: card.id, user_id: card.user_id, rating: data.rating, reviewed_at: data.reviewed_at, origin: data.origin as LogOrigin, correct: data.correct,
      answer: data.answer === null ? null : JSON.stringify(data.answer), from_central: false, created_at: stamp,
    });
    results.set(change_id, { change_id, outcome: 'accepted', reason: null });
  }
  await appendLog(db, rows);
  await rebuildCards(db, await schedulerOfSystem(db), rows.map((r) => r.card_id), stamp);
  return changes.map((c) => results.get(c.change_id)!);
}

// ---- down: the card entity is review.down.ts; here what the branch does with it

/** Branch hooks of the card entity (sync/branch/apply.ts): kept only for a person (and question) this laptop has. */
export const REVIEW_CARD_HOOKS = {
  local: async (_db: Db, row: Row): Promise<Row | undefined> => (row.user_id === null || (row.kind === 'question' && row.question_id === null) ? undefined : {}),
  after: async (db: Db, id: number, data: Row): Promise<void> => {
    const userId = Number((await db('review_cards').where({ id }).first('user_id'))?.user_id);
    const stamp = now();
    const log = Array.isArray(data.log) ? (data.log as Row[]) : [];
    await appendLog(
      db,
      log.map((e) => ({
        gid: String(e.gid), card_id: id, user_id: userId, rating: Number(e.rating), reviewed_at: String(e.reviewed_at), origin: String(e.origin) as LogOrigin,
        correct: e.correct === null || e.correct === undefined ? null : Boolean(e.correct), answer: (e.answer as string | null) ?? null, from_central: true, created_at: stamp,
      })),
    );
    await rebuildCards(db, await schedulerOfSystem(db), [id], stamp);
  },
};
