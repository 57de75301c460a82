import type { Db } from '../db/knex.js';
import type { Certificate } from '../../contract/exams.js';
import { toNumber } from '../db/rows.js';
import { insertJsonRows, type Columns } from '../db/json-rows.js';
import { newGid } from '../db/gid.js';

export interface CertifiedRecord {
  /** Given for the certificate of a record pushed by a branch (it keeps the branch's); otherwise a new one is made. */
  gid?: string;
  record_id: number;
  user_id: number;
  paper_id: number;
  full_name: string;
  exam_name: string;
  score: number;
  total_score: number;
  pass_score: number;
}

interface CertificateRow extends CertifiedRecord {
  id: number;
  certificate_no: string;
  issued_at: string;
}

const toCertificate = (r: CertificateRow): Certificate => ({
  id: Number(r.id),
  certificate_no: r.certificate_no,
  record_id: Number(r.record_id),
  paper_id: Number(r.paper_id),
  user_id: Number(r.user_id),
  full_name: r.full_name,
  exam_name: r.exam_name,
  score: toNumber(r.score),
  total_score: toNumber(r.total_score),
  pass_score: toNumber(r.pass_score),
  issued_at: r.issued_at,
  pdf_url: `/api/exam/certificates/${Number(r.id)}/pdf`,
});

/** e.g. TB-20260314-000042: the issue date and the record id, unique because a record has one certificate. */
const certificateNo = (recordId: number, issuedAt: string) => `TB-${issuedAt.slice(0, 10).replaceAll('-', '')}-${String(recordId).padStart(6, '0')}`;

type NewCertificateRow = Omit<CertificateRow, 'id' | 'gid'> & { gid: string };

const CERTIFICATE_COLUMNS: Columns<NewCertificateRow> = [
  ['record_id', 'integer'], ['certificate_no', 'text'], ['user_id', 'integer'], ['paper_id', 'integer'], ['full_name', 'text'], ['exam_name', 'text'],
  ['score', 'real'], ['total_score', 'integer'], ['pass_score', 'integer'], ['issued_at', 'text'], ['gid', 'text'],
];

/** Issues the certificates of passed records; the unique record_id makes a second one per record impossible. Returns id per record id. */
export async function insertCertificates(db: Db, records: (CertifiedRecord & { issued_at: string })[]): Promise<Map<number, number>> {
  const rows = records.map((r): NewCertificateRow => ({ ...r, certificate_no: certificateNo(r.record_id, r.issued_at), gid: r.gid ?? newGid() }));
  const inserted = await insertJsonRows<NewCertificateRow, { id: number; record_id: number }>(db, 'certificates', CERTIFICATE_COLUMNS, rows, 'RETURNING id, record_id');
  return new Map(inserted.map((row) => [Number(row.record_id), Number(row.id)]));
}

export async function listCertificates(db: Db, userId: number): Promise<Certificate[]> {
  const rows = await db<CertificateRow>('certificates').where({ user_id: userId }).orderBy([{ column: 'issued_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
  return rows.map(toCertificate);
}

export async function findCertificate(db: Db, id: number): Promise<Certificate | undefined> {
  const row = await db<CertificateRow>('certificates').where({ id }).first();
  return row && toCertificate(row);
}
