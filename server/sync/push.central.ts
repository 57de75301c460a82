// Central: pushed changes (exam records), each accepted once by change id, re-graded before anything is stored.
// A batch is decided from bulk lookups and stored in one transaction with multi-row statements (the path a laptop
// back after weeks offline takes with thousands of records); a batch that meets a concurrent duplicate is redone
// change by change.
import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { Storage } from '../storage/index.js';
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import type { SubmitResult } from '../../contract/exams.js';
import type { PushedChange, PushedRecord, PushOutcome, PushResult } from '../../contract/sync.js';
import { now } from '../db/time.js';
import { parseJson } from '../db/rows.js';
import { insertJsonRows, type Columns } from '../db/json-rows.js';
import { fromDriverError } from '../http/errors.js';
import { toUser, type UserRow } from '../users/users.repository.js';
import type { KeyedQuestion } from '../exams/grading.js';
import { packQuestions, type ExamSession } from '../exams/sessions.repository.js';
import { storeConsumed, type GradedSubmit } from '../exams/submit-store.js';
import { countPushed, flagDevice, type DeviceRow } from './devices.repository.js';
import { regrade } from './regrade.js';
import { audit } from '../security/audit.js';
import { UP_HANDLERS, type UpContext } from './up.central.js';

type Decision = { outcome: Exclude<PushOutcome, 'accepted'>; reason: string } | { accept: GradedSubmit };

const refuse = (reason: string): Decision => ({ outcome: 'refused', reason });
const conflict = (reason: string): Decision => ({ outcome: 'conflict', reason });

interface VersionRow {
  question_gid: string;
  version: number;
  type: KeyedQuestion['type'];
  options: string;
  answer: string;
}

/** What deciding a batch needs, read in a few statements. */
interface Lookups {
  users: Map<string, UserRow>;
  papers: Map<string, number>;
  sessions: Set<string>;
  passMarks: Set<string>;
  questions: Map<string, number>;
  versions: Map<string, VersionRow>;
}

async function inChunks<T>(keys: string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const unique = [...new Set(keys)];
  const out: T[] = [];
  for (let i = 0; i < unique.length; i += 500) out.push(...(await read(unique.slice(i, i + 500))));
  return out;
}

async function lookups(db: Db, records: PushedRecord[]): Promise<Lookups> {
  const questionGids = records.flatMap((r) => r.answers.map((a) => a.question_gid));
  const paperGids = records.map((r) => r.paper_gid);
  const [users, papers, sessions, passMarks, questions, versions] = await Promise.all([
    inChunks(records.map((r) => r.user_gid), (c) => db('users').whereIn('gid', c) as Promise<(UserRow & { gid: string })[]>),
    inChunks(paperGids, (c) => db('exam_papers').whereIn('gid', c).select('id', 'gid') as Promise<{ id: number; gid: string }[]>),
    inChunks(records.map((r) => r.session_id), (c) => db('exam_sessions').whereIn('id', c).select('id') as Promise<{ id: string }[]>),
    inChunks(paperGids, (c) => db('paper_versions').whereIn('paper_gid', c).select('paper_gid', 'total_score', 'pass_score') as Promise<{ paper_gid: string; total_score: number; pass_score: number }[]>),
    inChunks(questionGids, (c) => db('questions').whereIn('gid', c).select('id', 'gid') as Promise<{ id: number; gid: string }[]>),
    inChunks(questionGids, (c) => db('question_versions').whereIn('question_gid', c) as Promise<VersionRow[]>),
  ]);
  return {
    users: new Map(users.map((u) => [u.gid, u])),
    papers: new Map(papers.map((p) => [p.gid, Number(p.id)])),
    sessions: new Set(sessions.map((s) => s.id)),
    passMarks: new Set(passMarks.map((m) => `${m.paper_gid}/${Number(m.total_score)}/${Number(m.pass_score)}`)),
    questions: new Map(questions.map((q) => [q.gid, Number(q.id)])),
    versions: new Map(versions.map((v) => [`${v.question_gid}/${Number(v.version)}`, v])),
  };
}

/** The central versions of the record's questions, in its order; a decision when one is unknown. */
function issuedQuestions(record: PushedRecord, known: Lookups): KeyedQuestion[] | Decision {
  const keyed: KeyedQuestion[] = [];
  for (const answer of record.answers) {
    const id = known.questions.get(answer.question_gid);
    if (id === undefined) return conflict(`question ${answer.question_gid} is not a question of the central bank`);
    const version = known.versions.get(`${answer.question_gid}/${answer.version}`);
    if (!version) return refuse(`question ${answer.question_gid} has no version ${answer.version} issued by the central server`);
    const keys = parseJson<{ key: string }[]>(version.options, []).map((o) => o.key);
    keyed.push({ id, type: version.type, keys, answer: parseJson<string[]>(version.answer, []), version: answer.version });
  }
  return keyed;
}

/** The record as a graded submit of a new session, for storeSubmits (record, certificate, points, mistake book). */
function graded(record: PushedRecord, user: User, paperId: number, questions: KeyedQuestion[], score: number, correct: number, detail: SubmitResult['detail']): GradedSubmit {
  const session: ExamSession = {
    id: record.session_id, kind: 'formal', paper_id: paperId, user_id: user.id, exam_name: record.exam_name, total_score: record.total_score,
    pass_score: record.pass_score, duration_minutes: record.duration_minutes, questions, started_at: record.started_at,
    deadline_at: new Date(Date.parse(record.started_at) + record.duration_minutes * 60_000).toISOString(),
    saved_answers: {}, saved_at: null, submitted_at: null, result: null,
  };
  const result: SubmitResult = {
    session_id: record.session_id, kind: 'formal', paper_id: paperId, record_id: null, exam_name: record.exam_name, score,
    total_score: record.total_score, pass_score: record.pass_score, passed: record.passed, correct_count: correct,
    wrong_count: questions.length - correct, question_count: questions.length, time_spent_sec: record.time_spent_sec,
    submitted_at: record.submitted_at, late: record.late, certificate_id: null, points_awarded: 0, detail,
  };
  // A certificate the branch did not send a gid for (none on a passed record should happen) gets a new one.
  return { session, user, result, gids: { record: record.gid, certificate: record.certificate_gid ?? undefined } };
}

function decide(record: PushedRecord, known: Lookups): Decision {
  const userRow = known.users.get(record.user_gid);
  if (!userRow) return conflict(`user ${record.user_gid} is not known centrally`);
  const paperId = known.papers.get(record.paper_gid);
  if (paperId === undefined) return conflict(`paper ${record.paper_gid} is not known centrally`);
  if (known.sessions.has(record.session_id)) return conflict(`session ${record.session_id} already exists centrally`);
  if (!known.passMarks.has(`${record.paper_gid}/${record.total_score}/${record.pass_score}`)) {
    return refuse(`total ${record.total_score} and pass mark ${record.pass_score} are no version of paper ${record.paper_gid}`);
  }
  const questions = issuedQuestions(record, known);
  if (!Array.isArray(questions)) return questions;
  const result = regrade(record, questions);
  if ('mismatch' in result) return refuse(result.mismatch);
  known.sessions.add(record.session_id); // a second record of the same session in this batch is a conflict
  return { accept: graded(record, toUser(userRow), paperId, questions, result.regraded.score, result.regraded.correct, result.regraded.detail) };
}

/** A pushed record's session, stored already submitted (consumed): nobody can submit it again. */
type SessionInsert = Pick<ExamSession, 'id' | 'kind' | 'paper_id' | 'user_id' | 'exam_name' | 'total_score' | 'pass_score' | 'duration_minutes' | 'started_at' | 'deadline_at'> & {
  questions: string;
  submitted_at: string;
  score: number;
  passed: boolean;
};
const SESSION_COLUMNS: Columns<SessionInsert> = [
  ['id', 'text'], ['kind', 'text'], ['paper_id', 'integer'], ['user_id', 'integer'], ['exam_name', 'text'], ['total_score', 'integer'], ['pass_score', 'integer'],
  ['duration_minutes', 'integer'], ['questions', 'text'], ['started_at', 'text'], ['deadline_at', 'text'], ['submitted_at', 'text'], ['score', 'real'], ['passed', 'boolean'],
];

type ReceivedRow = PushResult & { device_id: number; entity: string; received_at: string };
const RECEIVED_COLUMNS: Columns<ReceivedRow> = [['change_id', 'text'], ['device_id', 'integer'], ['entity', 'text'], ['outcome', 'text'], ['reason', 'text'], ['received_at', 'text']];

/** Stores the accepted records as local submits would (same code: record, certificate, points, mistake book), with the branch's gids. */
async function storeAccepted(db: Db, accepted: GradedSubmit[]): Promise<void> {
  if (!accepted.length) return;
  await insertJsonRows(
    db,
    'exam_sessions',
    SESSION_COLUMNS,
    accepted.map(({ session, result }) => ({ ...session, questions: packQuestions(session.questions), submitted_at: result.submitted_at, score: result.score, passed: result.passed })),
  );
  await storeConsumed(db, accepted);
}

async function storedOutcomes(db: Db, changeIds: string[], device: DeviceRow): Promise<Map<string, PushResult>> {
  const rows = await inChunks(changeIds, (c) => db('sync_received').whereIn('change_id', c) as Promise<{ change_id: string; device_id: number; outcome: PushOutcome; reason: string | null }[]>);
  return new Map(
    rows.map((row) => [
      row.change_id,
      Number(row.device_id) === device.id
        ? { change_id: row.change_id, outcome: row.outcome, reason: row.reason }
        : { change_id: row.change_id, outcome: 'conflict', reason: 'this change id was sent by another device' },
    ]),
  );
}

type RecordChange = Extract<PushedChange, { entity: 'exam_record' }>;

/** Exam records: decided from bulk lookups, the accepted ones stored with multi-row statements. */
async function receiveRecords(db: Db, changes: RecordChange[]): Promise<PushResult[]> {
  if (!changes.length) return [];
  const known = await lookups(db, changes.map((c) => c.data));
  const decided = changes.map((change) => ({ change, decision: decide(change.data, known) }));
  await storeAccepted(db, decided.flatMap(({ decision }) => ('accept' in decision ? [decision.accept] : [])));
  return decided.map(({ change, decision }): PushResult =>
    'accept' in decision ? { change_id: change.change_id, outcome: 'accepted', reason: null } : { change_id: change.change_id, outcome: decision.outcome, reason: decision.reason },
  );
}

type UpEntity = keyof typeof UP_HANDLERS;
type UpHandler = (up: UpContext, changes: { change_id: string; data: unknown }[]) => Promise<PushResult[]>;

/** Decides and stores new changes in one transaction, with their sync_received rows. */
async function receiveNew(db: Knex, ctx: Context, device: DeviceRow, changes: PushedChange[], storage: Storage): Promise<PushResult[]> {
  return db.transaction(async (trx) => {
    const outcomes = new Map<string, PushResult>();
    for (const r of await receiveRecords(trx, changes.filter((c): c is RecordChange => c.entity === 'exam_record'))) outcomes.set(r.change_id, r);
    for (const entity of Object.keys(UP_HANDLERS) as UpEntity[]) {
      const group = changes.filter((c) => c.entity === entity);
      if (group.length) for (const r of await (UP_HANDLERS[entity] as UpHandler)({ db: trx, storage }, group)) outcomes.set(r.change_id, r);
    }
    const results = changes.map((c) => outcomes.get(c.change_id)!);
    const at = now();
    const kept = results.flatMap((r, i): ReceivedRow[] => (r.outcome === 'retry' ? [] : [{ ...r, device_id: device.id, entity: changes[i]!.entity, received_at: at }]));
    await insertJsonRows(trx, 'sync_received', RECEIVED_COLUMNS, kept);
    for (const refused of results.filter((r) => r.outcome === 'refused')) {
      await flagDevice(trx, device.id, refused.reason!);
      await audit(trx, ctx, { action: 'sync.record_refused', device_id: device.id, target: refused.change_id, detail: { reason: refused.reason } });
    }
    return results;
  });
}

const isDuplicate = (err: unknown): boolean => fromDriverError(err)?.status === 409;

export async function receivePush(db: Knex, ctx: Context, device: DeviceRow, changes: PushedChange[], storage: Storage): Promise<PushResult[]> {
  const firstOf = new Map<string, PushedChange>();
  for (const change of changes) if (!firstOf.has(change.change_id)) firstOf.set(change.change_id, change);
  const known = await storedOutcomes(db, [...firstOf.keys()], device);
  const fresh = [...firstOf.values()].filter((c) => !known.has(c.change_id));
  let results: PushResult[] = [];
  try {
    results = fresh.length ? await receiveNew(db, ctx, device, fresh, storage) : [];
  } catch (err) {
    // A change of this batch was stored meanwhile by a concurrent push: one by one, each either stored or answered.
    if (!isDuplicate(err)) throw err;
    for (const change of fresh) {
      const again = (await storedOutcomes(db, [change.change_id], device)).get(change.change_id);
      try {
        results.push(again ?? (await receiveNew(db, ctx, device, [change], storage))[0]!);
      } catch (inner) {
        if (!isDuplicate(inner)) throw inner;
        results.push((await storedOutcomes(db, [change.change_id], device)).get(change.change_id)!);
      }
    }
  }
  for (const r of results) known.set(r.change_id, r);
  await countPushed(db, device.id, results.filter((r) => r.outcome === 'accepted').length);
  return changes.map((c) => known.get(c.change_id)!);
}
