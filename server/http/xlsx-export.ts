// One streaming Excel writer for the exports (exam records, assignment progress, inspections): a sheet with a bold,
// frozen header row of the filter's language, then one row per item, each written out as soon as it is added. A
// failure part-way ends the stream with the error.
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { sendDownload } from './file-response.js';
import { DEFAULT_TIME_ZONE, dateIn, dateTimeIn } from '../clock-format.js';

export type ExportLang = 'zh-CN' | 'en';

/**
 * What every export's query carries: the language of the headers and values, and the reader's UTC offset when the
 * reader gives one; without it times are the firm's (`time_zone`, the `timezone` setting).
 */
export interface ExportFilter {
  lang: ExportLang;
  tz_offset?: number | undefined;
  time_zone?: string;
}

export interface XlsxColumn<Row, Filter extends ExportFilter> {
  header: Record<ExportLang, string>;
  width: number;
  value: (row: Row, filter: Filter) => string | number;
}

/** An ISO instant as `YYYY-MM-DD HH:mm` at the reader's offset (minutes east of UTC), else in the firm's zone. */
export const localTime = (iso: string, filter: Pick<ExportFilter, 'tz_offset' | 'time_zone'>): string =>
  filter.tz_offset !== undefined
    ? new Date(Date.parse(iso) + filter.tz_offset * 60_000).toISOString().slice(0, 16).replace('T', ' ')
    : dateTimeIn(iso, filter.time_zone ?? DEFAULT_TIME_ZONE);

/** A download's name: its subject in the export's language and today's date in the firm's zone. */
export const exportName = (subject: Record<ExportLang, string>, filter: Pick<ExportFilter, 'lang' | 'time_zone'>): string =>
  `${subject[filter.lang]}-${dateIn(Date.now(), filter.time_zone ?? DEFAULT_TIME_ZONE)}.xlsx`;

/** Every row of a list read a page at a time, until a page comes back short. */
export async function* pagedRows<Row>(readPage: (page: { page: number; size: number }) => Promise<Row[]>, size = 1000): AsyncGenerator<Row> {
  for (let page = 1; ; page++) {
    const rows = await readPage({ page, size });
    yield* rows;
    if (rows.length < size) return;
  }
}

/** Excel's rules for a sheet name: none of \ / ? * [ ] :, at most 31 characters. */
const sheetName = (name: string) => name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31);

/** The workbook as a stream; the rows are written while it is being read. */
export async function streamWorkbook<Row, Filter extends ExportFilter>(
  name: string,
  columns: XlsxColumn<Row, Filter>[],
  filter: Filter,
  rows: Iterable<Row> | AsyncIterable<Row>,
): Promise<PassThrough> {
  // exceljs weighs tens of MB: loaded on the first export, not at start-up.
  const { default: Excel } = await import('exceljs');
  const out = new PassThrough();
  const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName(name), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header[filter.lang], width: c.width }));
  sheet.getRow(1).font = { bold: true };
  const fill = async () => {
    for await (const row of rows) sheet.addRow(columns.map((c) => c.value(row, filter))).commit();
    sheet.commit();
    await workbook.commit();
  };
  fill().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

/** Sends a streamed workbook as an attachment (no length known in advance, never cached). */
export function sendWorkbook(ctx: Context, workbook: PassThrough, filename: string): void {
  sendDownload(ctx, workbook, { filename, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}
