import fs from 'node:fs/promises';
import type { Db } from '../db/knex.js';
import type { ImportErrorCode, ImportReport, ImportRowError } from '../../contract/catalog.js';
import type { z } from 'zod';
import { validationFailed } from '../http/errors.js';
import { ProductCreate, type ProductInput } from './products.schema.js';
import { findProductByCode, insertProduct, updateProductRow } from './products.repository.js';
import { readXlsxRows, type SourceRow } from '../imports/xlsx-rows.js';

const FIELD_ALIASES: Record<string, string> = {
  code: 'code', 产品编码: 'code', 编码: 'code', 产品代码: 'code',
  name: 'name', 产品名称: 'name', 名称: 'name',
  category: 'category', 类别: 'category', 分类: 'category', 产品类别: 'category',
  status: 'status', 状态: 'status',
  summary: 'summary', 简介: 'summary', 摘要: 'summary',
  description: 'description', 描述: 'description', 详情: 'description',
  risk_level: 'risk_level', 风险等级: 'risk_level',
  cooling_off_days: 'cooling_off_days', 冷静期: 'cooling_off_days', 冷静期天数: 'cooling_off_days',
  commission_rate: 'commission_rate', 佣金比例: 'commission_rate', 佣金率: 'commission_rate',
  attributes: 'attributes',
};

const MAX_ROWS = 50_000;

async function readJsonRows(file: string): Promise<SourceRow[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    throw validationFailed('The import file is not valid JSON');
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { products?: unknown })?.products;
  if (!Array.isArray(list)) throw validationFailed('A JSON import is an array of products, or {"products": [...]}');
  return list.map((values, i) => ({ row: i + 1, values: values && typeof values === 'object' && !Array.isArray(values) ? (values as Record<string, unknown>) : { __invalid: values } }));
}

/** Known columns (English or Chinese headers) become fields; every other non-empty column becomes an attribute. */
function normalise(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const attributes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const field = FIELD_ALIASES[key.trim()] ?? FIELD_ALIASES[key.trim().toLowerCase()];
    if (!field) attributes[key] = value;
    else if (field === 'commission_rate' && typeof value === 'string' && value.trim() !== '') out[field] = Number(value.replace('%', ''));
    else if (field === 'cooling_off_days' && typeof value === 'string' && value.trim() !== '') out[field] = Number.parseInt(value, 10);
    else if (field !== 'attributes' && typeof value === 'number') out[field] = field === 'commission_rate' || field === 'cooling_off_days' ? value : String(value);
    else out[field] = value;
  }
  if (Object.keys(attributes).length) out.attributes = { ...(out.attributes as object | undefined), ...attributes };
  return out;
}

interface ValidRow {
  row: number;
  input: ProductInput & { name: string };
}

const KNOWN_ISSUES = new Set<ImportErrorCode>(['too_small', 'too_big', 'invalid_value', 'invalid_format']);

function issueCode(issue: z.core.$ZodIssue): Pick<ImportRowError, 'code' | 'expected'> {
  if (issue.code === 'invalid_type') return issue.input === undefined ? { code: 'required' } : { code: 'invalid_type', expected: issue.expected };
  return { code: KNOWN_ISSUES.has(issue.code as ImportErrorCode) ? (issue.code as ImportErrorCode) : 'invalid' };
}

function validate(rows: SourceRow[]): { valid: ValidRow[]; errors: ImportRowError[] } {
  const valid: ValidRow[] = [];
  const errors: ImportRowError[] = [];
  const codes = new Map<string, number>();
  for (const { row, values } of rows) {
    if ('__invalid' in values) {
      errors.push({ row, code: 'not_an_object', error: 'each product must be an object' });
      continue;
    }
    const parsed = ProductCreate.safeParse(normalise(values), { reportInput: true });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors.push({ row, field: issue.path.join('.') || undefined, error: issue.message, ...issueCode(issue) });
      continue;
    }
    const code = parsed.data.code;
    if (code) {
      const first = codes.get(code);
      if (first !== undefined) {
        errors.push({ row, field: 'code', code: 'duplicate_code', other_row: first, error: `duplicate code "${code}" (also in row ${first})` });
        continue;
      }
      codes.set(code, row);
    }
    valid.push({ row, input: parsed.data });
  }
  return { valid, errors };
}

/**
 * Imports every row in one transaction, or nothing when any row is invalid: the report then lists every bad row.
 * Rows whose code matches an existing product update it; the rest are created. dry_run reports without writing.
 */
export async function importProducts(db: Db, file: { filepath: string; originalFilename?: string | null }, dryRun: boolean): Promise<ImportReport> {
  const name = (file.originalFilename ?? '').toLowerCase();
  const rows = name.endsWith('.json') ? await readJsonRows(file.filepath) : name.endsWith('.xlsx') ? await readXlsxRows(file.filepath) : undefined;
  if (!rows) throw validationFailed('The import file must be .xlsx or .json');
  if (!rows.length) throw validationFailed('The import file contains no products');
  if (rows.length > MAX_ROWS) throw validationFailed(`At most ${MAX_ROWS} products per import`);
  const { valid, errors } = validate(rows);
  const report: ImportReport = { dry_run: dryRun, total: rows.length, valid: valid.length, created: 0, updated: 0, imported: 0, errors };

  const apply = async (trx: Db) => {
    for (const { input } of valid) {
      const existing = input.code ? await findProductByCode(trx, input.code) : undefined;
      if (existing) {
        await updateProductRow(trx, existing.id, input);
        report.updated++;
      } else {
        await insertProduct(trx, input);
        report.created++;
      }
    }
  };

  if (errors.length) return report;
  if (dryRun) {
    for (const { input } of valid) (input.code && (await findProductByCode(db, input.code)) ? report.updated++ : report.created++);
  } else {
    await db.transaction(apply);
    report.imported = report.created + report.updated;
  }
  return report;
}
