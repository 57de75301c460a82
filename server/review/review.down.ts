// The card as it goes down (docs/sync.md, "Spaced review"): its state and its whole log, so the laptop can replay the
// union of its own events and central's. Imports no sync module at run time (entities.ts lists it).
import type { EntityDef } from '../sync/entities.js';
import { toBool } from '../db/rows.js';

type Row = Record<string, unknown>;

export const REVIEW_CARD_ENTITY: EntityDef = {
  entity: 'review_card',
  table: 'review_cards',
  fields: ['kind', 'prompt', 'due', 'stability', 'difficulty', 'elapsed_days', 'scheduled_days', 'learning_steps', 'reps', 'lapses', 'state', 'last_review', 'created_at', 'updated_at'],
  refs: [
    { column: 'user_id', wire: 'user_gid', table: 'users' },
    { column: 'question_id', wire: 'question_gid', table: 'questions' },
  ],
  onDelete: 'delete',
  addWire: async (db, rows, wire) => {
    // Cards go down with their whole log, the submits' pending events derived first (imported here: the deriver
    // reaches sync modules, which list this entity).
    await (await import('./pending-events.js')).applyPendingReviewEvents(db);
    for (const data of wire.values()) data.log = [];
    const ids = rows.map((r) => Number(r.id));
    for (let i = 0; i < ids.length; i += 500) {
      const log = (await db('review_log').whereIn('card_id', ids.slice(i, i + 500)).orderBy(['card_id', 'reviewed_at', 'gid'])
        .select('card_id', 'gid', 'rating', 'reviewed_at', 'origin', 'correct', 'answer')) as Row[];
      for (const { card_id, correct, ...event } of log) {
        (wire.get(Number(card_id))!.log as Row[]).push({ ...event, correct: correct === null ? null : toBool(correct) });
      }
    }
  },
};

