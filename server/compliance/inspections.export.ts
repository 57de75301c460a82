// Inspections as an Excel workbook (GET /api/compliance/inspections/export): the list's filters, newest first, read
// a page at a time and streamed out as the rows are written (as the exam records export).
import type { PassThrough } from 'node:stream';
import type { Db } from '../db/knex.js';
import { exportName, localTime, pagedRows, streamWorkbook, type ExportFilter, type XlsxColumn } from '../http/xlsx-export.js';
import type { InspectionSummary } from '../../contract/compliance.js';
import type { InspectionExportInput } from './compliance.schema.js';
import { inspectionRowsNewestFirst } from './compliance.repository.js';

type Column = XlsxColumn<InspectionSummary, InspectionExportInput>;

const COLUMNS: Column[] = [
  { header: { 'zh-CN': '编号', en: 'Id' }, width: 8, value: (r) => r.id },
  { header: { 'zh-CN': '时间', en: 'Time' }, width: 18, value: (r, f) => localTime(r.created_at, f) },
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

export const exportFileName = (filter: ExportFilter) => exportName({ 'zh-CN': '合规质检记录', en: 'compliance-inspections' }, filter);

export function exportInspections(db: Db, filter: InspectionExportInput): Promise<PassThrough> {
  const rows = pagedRows((paging) => inspectionRowsNewestFirst(db, filter, paging));
  return streamWorkbook(filter.lang === 'en' ? 'Inspections' : '合规质检', COLUMNS, filter, rows);
}
