// Reading an import workbook (first worksheet, first row naming the columns) and writing its template: shared by the
// product, user and question imports.
import type ExcelJS from 'exceljs';
import { validationFailed } from '../http/errors.js';

export interface SourceRow {
  /** The row number as the spreadsheet shows it (the header is row 1). */
  row: number;
  /** Non-empty cells by their column's header. */
  values: Record<string, unknown>;
}

/**
 * A cell that holds no value a person could have meant: an error (`#DIV/0!`), or a formula whose result the file does
 * not carry. An import reports its row rather than store the formula; read as text, it is what the cell shows.
 */
export class BadCell {
  constructor(
    readonly kind: 'cell_error' | 'formula',
    readonly shown: string,
  ) {}

  toString(): string {
    return this.shown;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as a person reads it in the sheet: 2026-01-01, with the time when it has one (Excel's dates carry no zone). */
function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const time = date.getUTCHours() || date.getUTCMinutes() || date.getUTCSeconds() ? ` ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}` : '';
  return day + time;
}

/** What the cell shows: a formula's cached result, never the formula itself; a date as a date, never a Date string. */
function shownValue(v: ExcelJS.CellValue, cell: ExcelJS.Cell): unknown {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) return dateText(v) || undefined;
  if (typeof v === 'object') {
    if ('error' in v) return new BadCell('cell_error', String(v.error));
    if ('formula' in v || 'sharedFormula' in v) {
      const result = (v as ExcelJS.CellFormulaValue).result;
      if (result === undefined || result === null || result === '') return new BadCell('formula', `=${(v as ExcelJS.CellFormulaValue).formula ?? ''}`);
      return shownValue(result as ExcelJS.CellValue, cell);
    }
  }
  return cell.text.trim() || undefined;
}

function cellValue(cell: ExcelJS.Cell): unknown {
  return shownValue(cell.value, cell);
}

/** The rows of the first worksheet that have any value, by header name. */
export async function readXlsxRows(file: string): Promise<SourceRow[]> {
  // exceljs weighs tens of MB: loaded on the first import, not at start-up.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.readFile(file);
  } catch {
    throw validationFailed('The import file is not a readable .xlsx workbook');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw validationFailed('The workbook has no worksheet');
  const header = sheet.getRow(1);
  const columns = new Map<number, string>();
  header.eachCell((cell, col) => {
    const name = cell.text.trim();
    if (name) columns.set(col, name);
  });
  if (!columns.size) throw validationFailed('The first row of the worksheet must name the columns');
  const rows: SourceRow[] = [];
  sheet.eachRow((row, rowNumber) => {
    if (rowNumber === 1) return;
    const values: Record<string, unknown> = {};
    for (const [col, name] of columns) {
      const value = cellValue(row.getCell(col));
      if (value !== undefined) values[name] = value;
    }
    if (Object.keys(values).length) rows.push({ row: rowNumber, values });
  });
  return rows;
}

/** A template workbook: one sheet whose first row names the columns, then example rows. */
export async function templateWorkbook(sheetName: string, columns: { header: string; width: number }[], examples: unknown[][]): Promise<Buffer> {
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  for (const row of examples) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The header's field name: `aliases` maps English and Chinese headers (any case) to fields. */
export const fieldOf = (aliases: Record<string, string>, header: string): string | undefined => aliases[header.trim()] ?? aliases[header.trim().toLowerCase()];

/** Only .xlsx is read; anything else is a 400. */
export function assertXlsx(file: { originalFilename?: string | null }): void {
  if (!(file.originalFilename ?? '').toLowerCase().endsWith('.xlsx')) throw validationFailed('The import file must be an .xlsx workbook');
}
