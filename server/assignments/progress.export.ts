// An assignment's progress as an Excel workbook (GET /api/assignments/{id}/progress/export) through the shared
// streaming writer (http/xlsx-export.ts): the progress filters, every matching person, streamed out.
import type { PassThrough } from 'node:stream';
import { exportName, localTime, streamWorkbook, type ExportFilter, type XlsxColumn } from '../http/xlsx-export.js';
import type { AssignmentPerson } from '../../contract/assignments.js';
import type { ProgressExportFilter } from './assignments.schema.js';

type Lang = ProgressExportFilter['lang'];
type Column = XlsxColumn<AssignmentPerson, ProgressExportFilter>;

const STATUS: Record<Lang, Record<AssignmentPerson['status'], string>> = {
  'zh-CN': { done: '已完成', pending: '未完成', overdue: '已逾期' },
  en: { done: 'done', pending: 'pending', overdue: 'overdue' },
};

const COLUMNS: Column[] = [
  { header: { 'zh-CN': '姓名', en: 'Name' }, width: 14, value: (p) => p.full_name },
  { header: { 'zh-CN': '用户名', en: 'Username' }, width: 16, value: (p) => p.username },
  { header: { 'zh-CN': '部门', en: 'Department' }, width: 16, value: (p) => p.department },
  { header: { 'zh-CN': '状态', en: 'Status' }, width: 10, value: (p, f) => STATUS[f.lang][p.status] },
  { header: { 'zh-CN': '完成时间', en: 'Done at' }, width: 18, value: (p, f) => (p.done_at ? localTime(p.done_at, f) : '') },
  { header: { 'zh-CN': '最高分', en: 'Best score' }, width: 10, value: (p) => p.best_score ?? '' },
  { header: { 'zh-CN': '已用次数', en: 'Attempts' }, width: 10, value: (p) => p.attempts ?? '' },
];

export const progressFileName = (id: number, filter: ExportFilter) => exportName({ 'zh-CN': `学习任务${id}-完成情况`, en: `assignment-${id}-progress` }, filter);

export function exportProgress(title: string, people: AssignmentPerson[], filter: ProgressExportFilter): Promise<PassThrough> {
  return streamWorkbook(title || (filter.lang === 'en' ? 'Progress' : '完成情况'), COLUMNS, filter, people);
}
