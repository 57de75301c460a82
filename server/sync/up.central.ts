// Central: what branches push besides exam records (docs/sync.md, "Up"): course progress (with its points), the
// mistake book and study notes (and their deletions), and media suggested at a branch. Each is merged so that
// receiving it again, or an older state after a newer one, changes nothing.
import type { Db } from '../db/knex.js';
import type { PushedMedia, PushedMistake, PushedMistakeDeletion, PushedNote, PushedNoteDeletion, PushedProgress, PushResult } from '../../contract/sync.js';
import { PointRules } from '../../contract/learning.js';
import { now } from '../db/time.js';
import { parseJson, toBool } from '../db/rows.js';
import { awardPoints } from '../learning/points.service.js';
import { bindTable, gidMap } from './entities.js';
import { stagedUpload } from './uploads.central.js';
import { newStorageKey } from '../media/media.storage.js';
import type { Readable } from 'node:stream';
import { keys, sha256Tap, type Storage } from '../storage/index.js';
import { extensionOf, mimeTypeOf } from '../media/media.names.js';
import { notify } from '../notifications/notifications.service.js';
import { materialSuggested } from '../notifications/messages.js';
import { receiveReviewLog } from '../review/review.sync.js';
import { receiveInspections } from '../compliance/inspections.sync.js';
import { receiveRoleplaySessions } from '../roleplay/roleplay.sync.js';

export interface UpContext {
  db: Db;
  storage: Storage;
  /** The pushing device. */
  deviceId?: number;
}

interface Change<T> {
  change_id: string;
  data: T;
}

const accepted = (change_id: string): PushResult => ({ change_id, outcome: 'accepted', reason: null });
const conflict = (change_id: string, reason: string): PushResult => ({ change_id, outcome: 'conflict', reason });

const earliest = (a: string | null | undefined, b: string | null | undefined): string | null => (!a ? (b ?? null) : !b ? a : a < b ? a : b);
const latest = (a: string | null | undefined, b: string | null | undefined): string | null => (!a ? (b ?? null) : !b ? a : a > b ? a : b);

/** Local ids of the gids the changes name, per table. */
const ids = (db: Db, table: string, gids: (string | null)[]) => gidMap(db, table, 'gid', gids) as Promise<Map<string, number>>;

// ---- course progress: completed wins, the earliest stamps are kept; the completion's points once per user and course

async function receiveProgress({ db }: UpContext, changes: Change<PushedProgress>[]): Promise<PushResult[]> {
  const users = await ids(db, 'users', changes.map((c) => c.data.user_gid));
  const courses = (await db('courses').whereIn('gid', [...new Set(changes.map((c) => c.data.course_gid))]).select('id', 'gid', 'title')) as { id: number; gid: string; title: string }[];
  const byGid = new Map(courses.map((c) => [c.gid, c]));
  const results: PushResult[] = [];
  for (const { change_id, data } of changes) {
    const user_id = users.get(data.user_gid);
    const course = byGid.get(data.course_gid);
    if (user_id === undefined || !course) {
      results.push(conflict(change_id, `${user_id === undefined ? `user ${data.user_gid}` : `course ${data.course_gid}`} is not known centrally`));
      continue;
    }
    const key = { user_id, course_id: Number(course.id) };
    const current = (await db('course_progress').where(key).first()) as PushedProgress | undefined;
    const status = current?.status === 'completed' || data.status === 'completed' ? 'completed' : 'viewed';
    const merged = {
      status,
      viewed_at: earliest(current?.viewed_at, data.viewed_at),
      completed_at: status === 'completed' ? earliest(current?.completed_at, data.completed_at) : null,
      updated_at: latest(current?.updated_at, data.updated_at)!,
    };
    if (current) await db('course_progress').where(key).update(merged);
    else await db('course_progress').insert({ ...key, ...merged });
    if (status === 'completed') {
      await awardPoints(db, { ...key, source_type: 'course', source_id: key.course_id, points: PointRules.courseCompleted, reason: `Completed ${course.title}` }, merged.completed_at ?? now());
    }
    results.push(accepted(change_id));
  }
  return results;
}

// ---- mistake book: the larger count, the later wrong answer; mastered when it was mastered after the last wrong answer

interface MistakeState {
  wrong_count: number;
  last_wrong_answer: unknown;
  last_wrong_at: string;
  last_source: string;
  mastered: boolean;
  mastered_at: string | null;
  updated_at: string;
}

export function mergeMistake(current: MistakeState | undefined, pushed: MistakeState): MistakeState {
  if (!current) return pushed;
  const wrong = pushed.last_wrong_at > current.last_wrong_at ? pushed : current;
  const masteredAt = latest(current.mastered ? current.mastered_at : null, pushed.mastered ? pushed.mastered_at : null);
  const mastered = masteredAt !== null && masteredAt >= wrong.last_wrong_at;
  return {
    wrong_count: Math.max(current.wrong_count, pushed.wrong_count),
    last_wrong_answer: wrong.last_wrong_answer,
    last_wrong_at: wrong.last_wrong_at,
    last_source: wrong.last_source,
    mastered,
    mastered_at: mastered ? masteredAt : null,
    updated_at: latest(current.updated_at, pushed.updated_at)!,
  };
}

async function receiveMistakes({ db }: UpContext, changes: Change<PushedMistake>[]): Promise<PushResult[]> {
  const users = await ids(db, 'users', changes.map((c) => c.data.user_gid));
  const questions = await ids(db, 'questions', changes.map((c) => c.data.question_gid));
  const results: PushResult[] = [];
  for (const { change_id, data } of changes) {
    const user_id = users.get(data.user_gid);
    const question_id = questions.get(data.question_gid);
    if (user_id === undefined || question_id === undefined) {
      results.push(conflict(change_id, `${user_id === undefined ? `user ${data.user_gid}` : `question ${data.question_gid}`} is not known centrally`));
      continue;
    }
    const key = { user_id, question_id };
    const row = (await db('exam_mistakes').where(key).first()) as (Omit<MistakeState, 'mastered' | 'last_wrong_answer'> & { mastered: unknown; last_wrong_answer: string }) | undefined;
    const current: MistakeState | undefined = row && {
      wrong_count: Number(row.wrong_count), last_wrong_answer: parseJson(row.last_wrong_answer, ''), last_wrong_at: row.last_wrong_at, last_source: row.last_source,
      mastered: toBool(row.mastered), mastered_at: row.mastered_at, updated_at: row.updated_at,
    };
    const { wrong_count, last_wrong_answer, last_wrong_at, last_source, mastered, mastered_at, updated_at } = data;
    const merged = mergeMistake(current, { wrong_count, last_wrong_answer, last_wrong_at, last_source, mastered, mastered_at, updated_at });
    const values = { ...merged, last_wrong_answer: JSON.stringify(merged.last_wrong_answer) };
    if (row) await db('exam_mistakes').where(key).update(values);
    else await db('exam_mistakes').insert({ ...key, ...values, created_at: data.updated_at });
    results.push(accepted(change_id));
  }
  return results;
}

// ---- study notes: by gid, the later edit wins

async function receiveNotes({ db }: UpContext, changes: Change<PushedNote>[]): Promise<PushResult[]> {
  const users = await ids(db, 'users', changes.map((c) => c.data.user_gid));
  const courses = await ids(db, 'courses', changes.map((c) => c.data.course_gid));
  const products = await ids(db, 'products', changes.map((c) => c.data.product_gid));
  const results: PushResult[] = [];
  for (const { change_id, data } of changes) {
    const user_id = users.get(data.user_gid);
    if (user_id === undefined) {
      results.push(conflict(change_id, `user ${data.user_gid} is not known centrally`));
      continue;
    }
    const existing = (await db('study_notes').where({ gid: data.gid }).first('user_id', 'updated_at')) as { user_id: number; updated_at: string } | undefined;
    if (existing && Number(existing.user_id) !== user_id) {
      results.push(conflict(change_id, `note ${data.gid} belongs to another user`));
      continue;
    }
    const values = {
      user_id, title: data.title, content: data.content, course_id: (data.course_gid && courses.get(data.course_gid)) ?? null,
      product_id: (data.product_gid && products.get(data.product_gid)) ?? null, updated_at: data.updated_at,
    };
    if (!existing) await db('study_notes').insert({ ...values, gid: data.gid, created_at: data.created_at });
    else if (existing.updated_at < data.updated_at) await db('study_notes').where({ gid: data.gid }).update(values);
    results.push(accepted(change_id));
  }
  return results;
}

// ---- deletions made on the branch: applied unless the row changed centrally after them (the later change wins)

async function receiveNoteDeletions({ db }: UpContext, changes: Change<PushedNoteDeletion>[]): Promise<PushResult[]> {
  const users = await ids(db, 'users', changes.map((c) => c.data.user_gid));
  const results: PushResult[] = [];
  for (const { change_id, data } of changes) {
    const existing = (await db('study_notes').where({ gid: data.gid }).first('user_id')) as { user_id: number } | undefined;
    if (existing && Number(existing.user_id) !== users.get(data.user_gid)) {
      results.push(conflict(change_id, `note ${data.gid} belongs to another user`));
      continue;
    }
    await db('study_notes').where({ gid: data.gid }).where('updated_at', '<=', data.deleted_at).delete();
    results.push(accepted(change_id));
  }
  return results;
}

async function receiveMistakeDeletions({ db }: UpContext, changes: Change<PushedMistakeDeletion>[]): Promise<PushResult[]> {
  const users = await ids(db, 'users', changes.map((c) => c.data.user_gid));
  const questions = await ids(db, 'questions', changes.map((c) => c.data.question_gid));
  for (const { data } of changes) {
    const user_id = users.get(data.user_gid);
    const question_id = questions.get(data.question_gid);
    // A user or question unknown here has no entry here to delete.
    if (user_id !== undefined && question_id !== undefined) {
      await db('exam_mistakes').where({ user_id, question_id }).where('updated_at', '<=', data.deleted_at).delete();
    }
  }
  return changes.map(({ change_id }) => accepted(change_id));
}

// ---- media suggested at a branch: pending central audit, its file uploaded first and verified here

/** Stores the stream under key and returns its sha256. */
async function storeHashed(storage: Storage, key: string, input: Readable, size: number): Promise<string> {
  const tap = sha256Tap();
  input.on('error', (err) => tap.stream.destroy(err));
  await storage.put(key, input.pipe(tap.stream), { size });
  return tap.digest();
}

async function receiveMedia({ db, storage }: UpContext, changes: Change<PushedMedia>[]): Promise<PushResult[]> {
  const results: PushResult[] = [];
  for (const { change_id, data } of changes) {
    const uploader = (await db('users').where({ gid: data.user_gid }).first('id', 'username', 'full_name')) as { id: number; username: string; full_name: string } | undefined;
    if (!uploader) {
      results.push(conflict(change_id, `user ${data.user_gid} is not known centrally`));
      continue;
    }
    if (await db('media_files').where({ gid: data.gid }).first('id')) {
      results.push(accepted(change_id));
      continue;
    }
    const staged = await stagedUpload(storage, data.gid);
    // Stored under its media key while its sha256 is computed (one pass over the bytes), removed again if it differs.
    const storageKey = newStorageKey();
    const hashed = staged.size === data.size ? await storeHashed(storage, keys.media(storageKey), staged.read(), data.size) : undefined;
    if (hashed !== data.sha256) {
      // Uploaded again from the start before the next push.
      if (hashed) await storage.delete(keys.media(storageKey));
      await staged.discard();
      results.push({ change_id, outcome: 'retry', reason: `the file of media ${data.gid} was not uploaded completely or does not match its sha256` });
      continue;
    }
    await staged.discard();
    const table = bindTable(data.bind_type);
    const bindId = table && data.bind_gid ? ((await ids(db, table, [data.bind_gid])).get(data.bind_gid) ?? null) : null;
    const fileExt = extensionOf(data.filename);
    const stamp = now();
    const [inserted] = await db('media_files')
      .insert({
        gid: data.gid, filename: data.filename, file_ext: fileExt, mime_type: mimeTypeOf(fileExt), size: data.size, sha256: data.sha256, storage_key: storageKey,
        bind_type: table && bindId === null ? 'none' : data.bind_type, bind_id: bindId, uploaded_by: uploader.id, remark: data.remark, status: 'pending',
        created_at: data.created_at, updated_at: stamp,
      })
      .returning('id');
    const id = Number((inserted as { id: number }).id);
    await notify.admins(db, materialSuggested(uploader.full_name || uploader.username, { id, filename: data.filename }, data.remark));
    results.push(accepted(change_id));
  }
  return results;
}

/** The handlers of the pushed entities other than exam records. */
export const UP_HANDLERS = {
  course_progress: receiveProgress,
  mistake: receiveMistakes,
  study_note: receiveNotes,
  media: receiveMedia,
  study_note_deleted: receiveNoteDeletions,
  mistake_deleted: receiveMistakeDeletions,
  review_log: receiveReviewLog,
  compliance_inspection: receiveInspections,
  roleplay_session: receiveRoleplaySessions,
} as const;
