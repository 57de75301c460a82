// The admins' figures of spaced review: per department and per person, due and overdue cards and predicted recall
// now; the department's weakest questions and knowledge domains; reviews per day.
import type { Db } from '../db/knex.js';
import type { ReviewStats } from '../../contract/review.js';
import { toBool } from '../db/rows.js';
import { recallOf, type CardColumns } from './scheduler.js';
import { schedulerOfSystem } from './review.parameters.js';
import { nowDate } from '../clock.js';
import { SESSION_ORIGINS, startOfDay } from './review.service.js';
import type { StatsFilter } from './review.schema.js';
import { applyPendingReviewEvents } from './pending-events.js';

/** A card is overdue a day after it fell due (due is "today's list"; overdue is "missed it"). */
const OVERDUE_MS = 86_400_000;
const WEAKEST = 5;

type StatsRow = CardColumns & { user_id: number; username: string; full_name: string; department: string | null; question_id: number | null; stem: string | null; domain: string | null };

const mean = (values: number[]): number | null => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);
const round = (value: number) => Math.round(value * 1000) / 1000;
const localDate = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

function weakest<K>(cards: { key: K; recall: number }[], describe: (key: K, count: number, recall: number) => unknown) {
  const groups = new Map<K, number[]>();
  for (const { key, recall } of cards) groups.set(key, [...(groups.get(key) ?? []), recall]);
  return [...groups].map(([key, values]) => ({ key, count: values.length, recall: mean(values)! })).sort((a, b) => a.recall - b.recall).slice(0, WEAKEST).map((g) => describe(g.key, g.count, round(g.recall)));
}

export async function reviewStats(db: Db, filter: StatsFilter): Promise<ReviewStats> {
  await applyPendingReviewEvents(db);
  const at = nowDate();
  const scheduler = await schedulerOfSystem(db);
  const cards = db('review_cards as c')
    .join('users as u', 'u.id', 'c.user_id')
    .leftJoin('questions as q', 'q.id', 'c.question_id')
    .where('u.status', 'active')
    .where((w) => w.where('c.kind', 'practice').orWhere('q.status', 'active'));
  if (filter.department) cards.where('u.department', filter.department);
  const rows = (await cards.select('c.due', 'c.stability', 'c.difficulty', 'c.elapsed_days', 'c.scheduled_days', 'c.learning_steps', 'c.reps', 'c.lapses', 'c.state', 'c.last_review',
    'c.user_id', 'u.username', 'u.full_name', 'u.department', 'c.question_id', 'q.stem', 'q.domain')) as StatsRow[];

  const from = startOfDay(new Date(at.getTime() - (filter.days - 1) * OVERDUE_MS));
  const logs = db('review_log as l').join('users as u', 'u.id', 'l.user_id').whereIn('l.origin', SESSION_ORIGINS).where('l.reviewed_at', '>=', from.toISOString());
  if (filter.department) logs.where('u.department', filter.department);
  const events = (await logs.select('l.user_id', 'l.reviewed_at', 'l.correct')) as { user_id: number; reviewed_at: string; correct: unknown }[];

  const atMs = at.getTime();
  const scored = rows.map((r) => ({ ...r, user_id: Number(r.user_id), department: r.department || '', recall: recallOf(scheduler, r, at), dueMs: Date.parse(r.due) }));
  const weekAgo = new Date(atMs - 7 * OVERDUE_MS).toISOString();
  const recentByUser = new Map<number, number>();
  for (const e of events) if (e.reviewed_at >= weekAgo) recentByUser.set(Number(e.user_id), (recentByUser.get(Number(e.user_id)) ?? 0) + 1);

  const byDepartment = new Map<string, typeof scored>();
  const byUser = new Map<number, typeof scored>();
  for (const card of scored) {
    byDepartment.set(card.department, [...(byDepartment.get(card.department) ?? []), card]);
    byUser.set(card.user_id, [...(byUser.get(card.user_id) ?? []), card]);
  }
  const counts = (list: typeof scored) => ({
    cards: list.length,
    due: list.filter((c) => c.dueMs <= atMs).length,
    overdue: list.filter((c) => c.dueMs <= atMs - OVERDUE_MS).length,
    mean_retrievability: ((m) => (m === null ? null : round(m)))(mean(list.filter((c) => c.last_review).map((c) => c.recall))),
  });
  const days = new Map<string, { reviews: number; correct: number }>();
  for (let i = 0; i < filter.days; i++) days.set(localDate(new Date(from.getTime() + i * OVERDUE_MS + 12 * 3_600_000)), { reviews: 0, correct: 0 });
  for (const e of events) {
    const day = days.get(localDate(new Date(e.reviewed_at)));
    if (!day) continue;
    day.reviews++;
    if (toBool(e.correct)) day.correct++;
  }
  return {
    generated_at: at.toISOString(),
    departments: [...byDepartment].sort(([a], [b]) => a.localeCompare(b)).map(([department, list]) => {
      const reviewed = list.filter((c) => c.last_review && c.question_id !== null);
      return {
        department,
        people: new Set(list.map((c) => c.user_id)).size,
        ...counts(list),
        weakest_questions: weakest(reviewed.map((c) => ({ key: Number(c.question_id), recall: c.recall })), (id, count, recall) => {
          const card = reviewed.find((c) => Number(c.question_id) === id)!;
          return { question_id: id, stem: card.stem ?? '', domain: card.domain ?? '', cards: count, retrievability: recall };
        }) as ReviewStats['departments'][number]['weakest_questions'],
        weakest_domains: weakest(reviewed.map((c) => ({ key: c.domain ?? '', recall: c.recall })), (domain, count, recall) => ({ domain, cards: count, retrievability: recall })) as ReviewStats['departments'][number]['weakest_domains'],
      };
    }),
    people: [...byUser].map(([user_id, list]) => ({
      user_id, username: list[0]!.username, full_name: list[0]!.full_name, department: list[0]!.department, ...counts(list), reviews_7d: recentByUser.get(user_id) ?? 0,
    })).sort((a, b) => b.overdue - a.overdue || b.due - a.due || a.username.localeCompare(b.username)),
    reviews_per_day: [...days].map(([date, d]) => ({ date, ...d })),
  };
}
