// Branch: state that goes up (course progress, mistake book, study notes), read into the outbox by its updated_at
// (docs/sync.md, "Up"). Each state read is one change whose id is derived from the device, the row and its
// updated_at, so reading the same state again adds nothing; the central server merges states idempotently.
import crypto from 'node:crypto';
import type { Db } from '../../db/knex.js';
import type { PushedMistake, PushedNote, PushedProgress } from '../../../contract/sync.js';
import { now } from '../../db/time.js';
import { parseJson, toBool, toNumber } from '../../db/rows.js';

type Row = Record<string, unknown>;

interface StateSource {
  entity: 'course_progress' | 'mistake' | 'study_note';
  table: string;
  /** The rows changed since `since`, with the gids their payload names. */
  read: (db: Db, since: string) => Promise<Row[]>;
  payload: (row: Row) => PushedProgress | PushedMistake | PushedNote;
  key: (row: Row) => string;
}

const SOURCES: readonly StateSource[] = [
  {
    entity: 'course_progress',
    table: 'course_progress',
    read: (db, since) =>
      db('course_progress as s').join('users as u', 'u.id', 's.user_id').join('courses as c', 'c.id', 's.course_id').where('s.updated_at', '>=', since)
        .select('s.*', 'u.gid as user_gid', 'c.gid as course_gid'),
    payload: (r) => ({
      user_gid: String(r.user_gid), course_gid: String(r.course_gid), status: r.status as PushedProgress['status'], viewed_at: (r.viewed_at as string | null) ?? null,
      completed_at: (r.completed_at as string | null) ?? null, updated_at: String(r.updated_at),
    }),
    key: (r) => `${String(r.user_gid)}/${String(r.course_gid)}`,
  },
  {
    entity: 'mistake',
    table: 'exam_mistakes',
    read: (db, since) =>
      db('exam_mistakes as s').join('users as u', 'u.id', 's.user_id').join('questions as q', 'q.id', 's.question_id').where('s.updated_at', '>=', since)
        .select('s.*', 'u.gid as user_gid', 'q.gid as question_gid'),
    payload: (r) => ({
      user_gid: String(r.user_gid), question_gid: String(r.question_gid), wrong_count: toNumber(r.wrong_count), last_wrong_answer: parseJson<string | string[]>(String(r.last_wrong_answer), ''),
      last_wrong_at: String(r.last_wrong_at), last_source: r.last_source as PushedMistake['last_source'], mastered: toBool(r.mastered),
      mastered_at: (r.mastered_at as string | null) ?? null, updated_at: String(r.updated_at),
    }),
    key: (r) => `${String(r.user_gid)}/${String(r.question_gid)}`,
  },
  {
    entity: 'study_note',
    table: 'study_notes',
    read: (db, since) =>
      db('study_notes as s').join('users as u', 'u.id', 's.user_id').leftJoin('courses as c', 'c.id', 's.course_id').leftJoin('products as p', 'p.id', 's.product_id')
        .where('s.updated_at', '>=', since).select('s.*', 'u.gid as user_gid', 'c.gid as course_gid', 'p.gid as product_gid'),
    payload: (r) => ({
      gid: String(r.gid), user_gid: String(r.user_gid), title: String(r.title), content: String(r.content), course_gid: (r.course_gid as string | null) ?? null,
      product_gid: (r.product_gid as string | null) ?? null, created_at: String(r.created_at), updated_at: String(r.updated_at),
    }),
    key: (r) => String(r.gid),
  },
];

/** Rows are read again from a minute before the last one read: a transaction may commit a stamp older than a later one's. */
const OVERLAP_MS = 60_000;

/** A uuid (version 4 layout) from the hash of what identifies one state of one row on this device. */
export function derivedUuid(text: string): string {
  const h = crypto.createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[parseInt(h[16]!, 16) & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type Marks = Partial<Record<StateSource['entity'], string>>;

const readMarks = async (db: Db): Promise<Marks> => parseJson<Marks>(((await db('sync_state').where({ id: 1 }).first('up_marks')) as { up_marks: string | null } | undefined)?.up_marks ?? '{}', {});

/** At enrolment: state from before it stays local, like records. */
export async function skipExistingState(db: Db): Promise<void> {
  const stamp = now();
  await db('sync_state').where({ id: 1 }).update({ up_marks: JSON.stringify(Object.fromEntries(SOURCES.map((s) => [s.entity, stamp]))) });
}

/** Appends the states changed since the last read (once each) to the outbox. */
export async function enqueueState(db: Db, deviceGid: string): Promise<void> {
  const marks = await readMarks(db);
  const next: Marks = { ...marks };
  for (const source of SOURCES) {
    const mark = marks[source.entity];
    if (!mark) {
      next[source.entity] = now(); // enrolled before state went up: from now on
      continue;
    }
    const since = new Date(Date.parse(mark) - OVERLAP_MS).toISOString();
    const rows = await source.read(db, since);
    if (!rows.length) continue;
    const stamp = now();
    const changes = rows.map((row) => ({
      change_id: derivedUuid(`${deviceGid}/${source.entity}/${source.key(row)}/${String(row.updated_at)}`),
      entity: source.entity,
      row_id: toNumber(row.id),
      payload: JSON.stringify(source.payload(row)),
      created_at: stamp,
    }));
    for (let i = 0; i < changes.length; i += 200) await db('sync_outbox').insert(changes.slice(i, i + 200)).onConflict('change_id').ignore();
    next[source.entity] = rows.reduce((max, row) => (String(row.updated_at) > max ? String(row.updated_at) : max), mark);
  }
  await db('sync_state').where({ id: 1 }).update({ up_marks: JSON.stringify(next) });
}
