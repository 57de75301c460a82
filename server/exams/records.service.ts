import type { Db } from '../db/knex.js';
import type { Page } from '../../contract/envelope.js';
import type { User } from '../../contract/users.js';
import type { Certificate, ExamRecord, ExamRecordDetail } from '../../contract/exams.js';
import { notFound } from '../http/errors.js';
import { parseId } from '../http/validate.js';
import type { RecordFilter } from './exams.schema.js';
import { findRecord, listRecords } from './records.repository.js';
import { questionsByIds } from './questions.repository.js';
import { findCertificate } from './certificates.repository.js';
import { answersVisible, hiddenQuestionIds, withoutAnswerKey, withoutKeysOf } from './answer-visibility.js';

const isAdmin = (user: User) => user.role === 'admin';

/** GET /exam/record: an employee sees their own records, an admin everyone's. */
/** GET /exam/record: an admin sees everyone's (and may filter as on /system/exam-records), anyone else their own. */
export const listVisibleRecords = (db: Db, viewer: User, filter: RecordFilter): Promise<Page<ExamRecord>> =>
  listRecords(db, isAdmin(viewer) ? filter : { ...filter, user_id: viewer.id });

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A record is addressed by its id, or by the session id the submit answered with. */
export const recordKey = (param: string | undefined): { id: number } | { session_id: string } =>
  param && SESSION_ID.test(param) ? { session_id: param.toLowerCase() } : { id: parseId(param, 'Exam record') };

/** The record with each answer next to its question; another employee's record is a 404, as if it did not exist. */
export async function recordDetail(db: Db, viewer: User, key: ReturnType<typeof recordKey>): Promise<ExamRecordDetail> {
  const record = await findRecord(db, key);
  if (!record || (!isAdmin(viewer) && record.user_id !== viewer.id)) throw notFound('Exam record');
  const questions = await questionsByIds(db, record.detail.map((d) => d.question_id));
  const detail = record.detail.map((answer, i) => {
    const q = questions.get(answer.question_id);
    return { ...answer, order: i + 1, type: q?.type ?? 'single', stem: q?.stem ?? '', options: q?.options ?? [], explanation: q?.explanation ?? '' };
  });
  const [visible, hidden] = await Promise.all([answersVisible(db, viewer, record.user_id, record.paper_id), hiddenQuestionIds(db, viewer, record.user_id)]);
  return { ...record, detail: visible ? withoutKeysOf(detail, hidden) : withoutAnswerKey(detail) };
}

/** The owner and admins may see a certificate; for anyone else it does not exist. */
export async function visibleCertificate(db: Db, viewer: User, id: number): Promise<Certificate> {
  const cert = await findCertificate(db, id);
  if (!cert || (!isAdmin(viewer) && cert.user_id !== viewer.id)) throw notFound('Certificate');
  return cert;
}
