// Branch: the outbox of changes to push (records and media by a high-water mark on their ids, state by
// state-outbox.ts), and the pushed form of each (gids, question versions).
import type { Db } from '../../db/knex.js';
import type { PushedAnswer, PushedChange, PushedEntity, PushedMedia, PushResult } from '../../../contract/sync.js';
import { now } from '../../db/time.js';
import { countOf, toBool, toNumber } from '../../db/rows.js';
import { findSessions } from '../../exams/sessions.repository.js';
import { unpackDetail } from '../../exams/records.repository.js';
import { gidMap } from '../entities.js';
import { jsonRows, type Columns } from '../../db/json-rows.js';
import { enqueueState, skipExistingState } from './state-outbox.js';
import { inspectionChanges } from '../../compliance/inspections.sync.js';
import { applyPendingReviewEvents } from '../../review/pending-events.js';
import { enqueueFinishedSessions, roleplaySessionChanges, skipExistingSessions } from '../../roleplay/roleplay.sync.js';

/** Rows that go up once, by id: exam records, and media uploaded here (not those that came from the central server). */
const APPENDED: readonly { entity: PushedEntity; table: string; where: string }[] = [
  { entity: 'exam_record', table: 'exam_records', where: 'true' },
  { entity: 'media', table: 'media_files', where: 'uploaded_by IS NOT NULL' },
  // Inspected here (not those synced up to this server from a branch).
  { entity: 'compliance_inspection', table: 'compliance_inspections', where: 'origin_device IS NULL' },
];

/** Appends the records and media written since the last call (by id), and the state changed since. */
export async function enqueueAll(db: Db, deviceGid: string): Promise<void> {
  for (const { entity, table, where } of APPENDED) {
    const top = await db('sync_outbox').where({ entity }).max({ max: 'row_id' }).first();
    await db.raw(`INSERT INTO sync_outbox (change_id, entity, row_id, created_at) SELECT gid, ?, id, ? FROM ?? WHERE id > ? AND ${where} ORDER BY id`, [entity, now(), table, toNumber(top?.max)]);
  }
  await enqueueFinishedSessions(db);
  await enqueueState(db, deviceGid);
}

/** At enrolment: what was made before it stays local (records were graded against the laptop's own bank). */
export async function skipExisting(db: Db): Promise<void> {
  const stamp = now();
  for (const { entity, table, where } of APPENDED) {
    await db.raw(
      `INSERT INTO sync_outbox (change_id, entity, row_id, created_at, sent_at, outcome, reason)
       SELECT gid, ?, id, ?, ?, 'skipped', 'made before the enrolment' FROM ?? WHERE ${where} AND gid NOT IN (SELECT change_id FROM sync_outbox)`,
      [entity, stamp, stamp, table],
    );
  }
  await skipExistingSessions(db);
  await skipExistingState(db);
}

export const pendingUp = async (db: Db): Promise<number> => countOf(await db('sync_outbox').whereNull('sent_at').count({ count: '*' }).first());

interface RecordJoin {
  id: number;
  gid: string;
  session_id: string;
  exam_name: string;
  score: number;
  total_score: number;
  pass_score: number;
  passed: boolean | number;
  correct_count: number;
  wrong_count: number;
  question_count: number;
  time_spent_sec: number;
  late: boolean | number;
  leave_count: number | null;
  detail: string;
  started_at: string;
  submitted_at: string;
  user_gid: string;
  paper_gid: string;
  certificate_gid: string | null;
}

interface Waiting {
  seq: number;
  change_id: string;
  entity: PushedEntity;
  row_id: number;
  payload: string | null;
}

/** Exam records as pushed, by change id. */
async function recordChanges(db: Db, waiting: Waiting[]): Promise<Map<string, PushedChange>> {
  if (!waiting.length) return new Map();
  const records = (await db('exam_records as r')
    .join('users as u', 'u.id', 'r.user_id')
    .join('exam_papers as p', 'p.id', 'r.paper_id')
    .leftJoin('certificates as c', 'c.record_id', 'r.id')
    .whereIn('r.id', waiting.map((w) => w.row_id))
    .select('r.*', 'u.gid as user_gid', 'p.gid as paper_gid', 'c.gid as certificate_gid')) as RecordJoin[];
  const sessions = await findSessions(db, records.map((r) => r.session_id));
  const questionGids = await gidMap(db, 'questions', 'id', sessions.flatMap((s) => s?.questions.map((q) => q.id) ?? []));
  const byId = new Map(records.map((r, i) => [Number(r.id), { record: r, session: sessions[i]! }]));
  return new Map(waiting.flatMap(({ change_id, row_id }): [string, PushedChange][] => {
    const found = byId.get(Number(row_id));
    if (!found) return [];
    const { record: r, session } = found;
    const detail = new Map(unpackDetail(r.detail).map((d) => [d.question_id, d]));
    const answers = session.questions.map((q): PushedAnswer => {
      const d = detail.get(q.id);
      return { question_gid: String(questionGids.get(String(q.id))), version: q.version ?? 1, user_answer: d?.user_answer ?? '', is_correct: !!d?.is_correct, correct_answer: d?.correct_answer ?? '' };
    });
    return [[change_id, {
      change_id,
      entity: 'exam_record',
      data: {
        gid: r.gid, session_id: r.session_id, user_gid: r.user_gid, paper_gid: r.paper_gid, exam_name: r.exam_name, score: toNumber(r.score),
        total_score: toNumber(r.total_score), pass_score: toNumber(r.pass_score), passed: toBool(r.passed), correct_count: toNumber(r.correct_count),
        wrong_count: toNumber(r.wrong_count), question_count: toNumber(r.question_count), time_spent_sec: toNumber(r.time_spent_sec), late: toBool(r.late), leave_count: toNumber(r.leave_count),
        duration_minutes: session.duration_minutes, started_at: r.started_at, submitted_at: r.submitted_at, certificate_gid: r.certificate_gid, answers,
      },
    }]];
  }));
}

/** Media uploaded here as pushed (their files were uploaded first, so their sha256 is known), by change id. */
async function mediaChanges(db: Db, waiting: Waiting[]): Promise<Map<string, PushedChange>> {
  if (!waiting.length) return new Map();
  const rows = (await db('media_files as m')
    .join('users as u', 'u.id', 'm.uploaded_by')
    .leftJoin('products as p', (j) => j.on('p.id', 'm.bind_id').andOnVal('m.bind_type', 'product'))
    .leftJoin('courses as c', (j) => j.on('c.id', 'm.bind_id').andOnVal('m.bind_type', 'course'))
    .whereIn('m.id', waiting.map((w) => w.row_id))
    .whereNotNull('m.sha256')
    .select('m.*', 'u.gid as user_gid', 'p.gid as product_gid', 'c.gid as course_gid')) as Record<string, unknown>[];
  return new Map(rows.map((m): [string, PushedChange] => {
    const data: PushedMedia = {
      gid: String(m.gid), user_gid: String(m.user_gid), filename: String(m.filename), size: toNumber(m.size), sha256: String(m.sha256),
      bind_type: m.bind_type as PushedMedia['bind_type'], bind_gid: ((m.product_gid ?? m.course_gid) as string | null) ?? null, remark: String(m.remark ?? ''), created_at: String(m.created_at),
    };
    return [String(m.gid), { change_id: String(m.gid), entity: 'media', data }];
  }));
}

/** A change as pushed, with its place in the outbox. */
export interface Outgoing {
  seq: number;
  change: PushedChange;
}

/** The next changes waiting after `afterSeq`, in order, as they are pushed; a change whose row is gone is marked skipped. */
export async function nextChanges(db: Db, limit: number, afterSeq = 0): Promise<Outgoing[]> {
  // The review events of submits still pending are queued when derived: derived first, they go up in this push.
  if (afterSeq === 0) await applyPendingReviewEvents(db);
  const waiting = (await db('sync_outbox').whereNull('sent_at').where('seq', '>', afterSeq).orderBy('seq').limit(limit).select('seq', 'change_id', 'entity', 'row_id', 'payload')) as Waiting[];
  if (!waiting.length) return [];
  const built = new Map([
    ...(await recordChanges(db, waiting.filter((w) => w.entity === 'exam_record'))),
    ...(await mediaChanges(db, waiting.filter((w) => w.entity === 'media'))),
    ...(await inspectionChanges(db, waiting.filter((w) => w.entity === 'compliance_inspection'))),
    ...(await roleplaySessionChanges(db, waiting.filter((w) => w.entity === 'roleplay_session'))),
  ]);
  for (const w of waiting) {
    if (w.payload !== null) built.set(w.change_id, { change_id: w.change_id, entity: w.entity, data: JSON.parse(w.payload) } as PushedChange);
  }
  const gone = waiting.filter((w) => !built.has(w.change_id)).map((w) => w.change_id);
  if (gone.length) await db('sync_outbox').whereIn('change_id', gone).update({ sent_at: now(), outcome: 'skipped', reason: 'the row was deleted' });
  return waiting.flatMap((w) => {
    const change = built.get(w.change_id);
    return change ? [{ seq: Number(w.seq), change }] : [];
  });
}

const SENT_COLUMNS: Columns<PushResult> = [['change_id', 'text'], ['outcome', 'text'], ['reason', 'text']];

/** What the central server answered, in one statement. */
export async function markSent(db: Db, results: PushResult[]): Promise<void> {
  const answered = results.filter((r) => r.outcome !== 'retry');
  if (!answered.length) return;
  await db.raw('UPDATE sync_outbox SET sent_at = ?, outcome = v.outcome, reason = v.reason FROM (?) AS v WHERE sync_outbox.change_id = v.change_id', [now(), jsonRows(db, SENT_COLUMNS, answered)]);
}
