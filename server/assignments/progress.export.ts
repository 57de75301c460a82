// An assignment's progress as an Excel workbook (GET /api/assignments/{id}/progress/export), as the exam records'
// export does it (exams/records.export.ts): the progress filters, every matching person, streamed out.
import { PassThrough } from 'node:stream';
import type { AssignmentPerson } from '../../contract/assignments.js';
import type { ProgressExportFilter } from './assignments.schema.js';

type Lang = ProgressExportFilter['lang'];
type Column = { header: Record<Lang, string>; width: number; value: (p: AssignmentPerson, f: ProgressExportFilter) => string };

const localTime = (iso: string, offsetMinutes: number) => new Date(Date.parse(iso) + offsetMinutes * 60_000).toISOString().slice(0, 16).replace('T', ' ');
const STATUS: Record<Lang, Record<AssignmentPerson['status'], string>> = {
  'zh-CN': { done: '已完成', pending: '未完成', overdue: '已逾期' },
  en: { done: 'done', pending: 'pending', overdue: 'overdue' },
};

const COLUMNS: Column[] = [
  { header: { 'zh-CN': '姓名', en: 'Name' }, width: 14, value: (p) => p.full_name },
  { header: { 'zh-CN': '用户名', en: 'Username' }, width: 16, value: (p) => p.username },
  { header: { 'zh-CN': '部门', en: 'Department' }, width: 16, value: (p) => p.department },
  { header: { 'zh-CN': '状态', en: 'Status' }, width: 10, value: (p, f) => STATUS[f.lang][p.status] },
  { header: { 'zh-CN': '完成时间', en: 'Done at' }, width: 18, value: (p, f) => (p.done_at ? localTime(p.done_at, f.tz_offset) : '') },
];

export const progressFileName = (id: number) => `assignment-${id}-progress-${new Date().toISOString().slice(0, 10)}.xlsx`;

export async function exportProgress(title: string, people: AssignmentPerson[], filter: ProgressExportFilter): Promise<PassThrough> {
  const { default: Excel } = await import('exceljs');
  const out = new PassThrough();
  const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet((title || (filter.lang === 'en' ? 'Progress' : '完成情况')).replace(/[\\/?*[\]:]/g, ' ').slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS.map((c) => ({ header: c.header[filter.lang], width: c.width }));
  sheet.getRow(1).font = { bold: true };
  const fill = async () => {
    for (const person of people) sheet.addRow(COLUMNS.map((c) => c.value(person, filter))).commit();
    sheet.commit();
    await workbook.commit();
  };
  fill().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
