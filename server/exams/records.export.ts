// Everyone's exam records as an Excel workbook (GET /api/system/exam-records/export): the list's filters, every
// matching record newest first, read a page at a time and streamed out as the rows are written.
import type { PassThrough } from 'node:stream';
import type { Db } from '../db/knex.js';
import { exportName, localTime, pagedRows, streamWorkbook, type ExportFilter as XlsxFilter, type XlsxColumn } from '../http/xlsx-export.js';
import type { ExamRecord } from '../../contract/exams.js';
import type { ExportFilter } from './exams.schema.js';
import { recordRowsNewestFirst } from './records.repository.js';

type Column = XlsxColumn<ExamRecord, ExportFilter>;

const yesNo = (value: boolean, lang: ExportFilter['lang']) => (lang === 'en' ? (value ? 'yes' : 'no') : value ? '是' : '否');

const COLUMNS: Column[] = [
  { header: { 'zh-CN': '姓名', en: 'Name' }, width: 14, value: (r) => r.full_name },
  { header: { 'zh-CN': '用户名', en: 'Username' }, width: 16, value: (r) => r.username },
  { header: { 'zh-CN': '部门', en: 'Department' }, width: 16, value: (r) => r.department ?? '' },
  { header: { 'zh-CN': '考试', en: 'Exam' }, width: 28, value: (r) => r.exam_name },
  { header: { 'zh-CN': '得分', en: 'Score' }, width: 8, value: (r) => r.score },
  { header: { 'zh-CN': '总分', en: 'Total' }, width: 8, value: (r) => r.total_score },
  { header: { 'zh-CN': '及格分', en: 'Pass mark' }, width: 9, value: (r) => r.pass_score },
  { header: { 'zh-CN': '结果', en: 'Result' }, width: 9, value: (r, f) => (f.lang === 'en' ? (r.passed ? 'passed' : 'failed') : r.passed ? '通过' : '未通过') },
  { header: { 'zh-CN': '答对题数', en: 'Correct' }, width: 9, value: (r) => r.correct_count },
  { header: { 'zh-CN': '题数', en: 'Questions' }, width: 9, value: (r) => r.question_count },
  { header: { 'zh-CN': '用时（秒）', en: 'Time (s)' }, width: 10, value: (r) => r.time_spent_sec },
  { header: { 'zh-CN': '超时提交', en: 'Late' }, width: 9, value: (r, f) => yesNo(r.late, f.lang) },
  { header: { 'zh-CN': '提交时间', en: 'Submitted at' }, width: 18, value: (r, f) => localTime(r.submitted_at, f) },
];

export const exportFileName = (filter: XlsxFilter) => exportName({ 'zh-CN': '考试记录', en: 'exam-records' }, filter);

/** The workbook as a stream; rows are added while it is being read. A failure part-way ends the stream with the error. */
export function exportRecords(db: Db, filter: ExportFilter): Promise<PassThrough> {
  const records = pagedRows((paging) => recordRowsNewestFirst(db, filter, paging));
  return streamWorkbook(filter.lang === 'en' ? 'Exam records' : '考试记录', COLUMNS, filter, records);
}
