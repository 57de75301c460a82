// Inspections as an Excel workbook (GET /api/compliance/inspections/export): the list's filters, newest first, read
// a page at a time and streamed out as the rows are written (as the exam records export).
import { PassThrough } from 'node:stream';
import type { Db } from '../db/knex.js';
import type { InspectionSummary } from '../../contract/compliance.js';
import type { InspectionExportInput } from './compliance.schema.js';
import { inspectionRowsNewestFirst } from './compliance.repository.js';

const READ_PAGE = 1000;

type Lang = InspectionExportInput['lang'];
type Column = { header: Record<Lang, string>; width: number; value: (r: InspectionSummary, f: InspectionExportInput) => string | number };

const localTime = (iso: string, offsetMinutes: number) => new Date(Date.parse(iso) + offsetMinutes * 60_000).toISOString().slice(0, 16).replace('T', ' ');

const COLUMNS: Column[] = [
  { header: { 'zh-CN': '编号', en: 'Id' }, width: 8, value: (r) => r.id },
  { header: { 'zh-CN': '时间', en: 'Time' }, width: 18, value: (r, f) => localTime(r.created_at, f.tz_offset) },
  { header: { 'zh-CN': '销售', en: 'Rep' }, width: 14, value: (r) => r.user.full_name || r.user.username },
  { header: { 'zh-CN': '部门', en: 'Department' }, width: 16, value: (r) => r.user.department },
  { header: { 'zh-CN': '通话', en: 'Call' }, width: 26, value: (r) => r.filename },
  { header: { 'zh-CN': '产品', en: 'Product' }, width: 20, value: (r) => r.product?.name ?? '' },
  { header: { 'zh-CN': '得分', en: 'Score' }, width: 8, value: (r) => r.score },
  { header: { 'zh-CN': '结果', en: 'Result' }, width: 9, value: (r, f) => (f.lang === 'en' ? (r.outcome === 'pass' ? 'passed' : 'failed') : r.outcome === 'pass' ? '通过' : '未通过') },
  { header: { 'zh-CN': '严重问题', en: 'Critical' }, width: 9, value: (r) => r.critical_failures },
  { header: { 'zh-CN': '未通过的规则', en: 'Failed rules' }, width: 40, value: (r) => r.failed_rules.join(', ') },
  { header: { 'zh-CN': '规则集版本', en: 'Rule set version' }, width: 12, value: (r) => `${r.rule_set_id}/v${r.rule_set_version}` },
];

export const exportFileName = () => `compliance-inspections-${new Date().toISOString().slice(0, 10)}.xlsx`;

export async function exportInspections(db: Db, filter: InspectionExportInput): Promise<PassThrough> {
  const { default: Excel } = await import('exceljs');
  const out = new PassThrough();
  const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(filter.lang === 'en' ? 'Inspections' : '合规质检', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS.map((c) => ({ header: c.header[filter.lang], width: c.width }));
  sheet.getRow(1).font = { bold: true };
  const fill = async () => {
    for (let page = 1; ; page++) {
      const rows = await inspectionRowsNewestFirst(db, filter, { page, size: READ_PAGE });
      for (const row of rows) sheet.addRow(COLUMNS.map((c) => c.value(row, filter))).commit();
      if (rows.length < READ_PAGE) break;
    }
    sheet.commit();
    await workbook.commit();
  };
  fill().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
