// What goes to the model for a skill run and how its reply becomes an artifact. Pure functions.
import type { SkillOutputKind, TableCell, TableContent, TaskDocument } from '../../contract/workbench.js';

export interface SkillRequest {
  message: string;
  documents: TaskDocument[];
  inputs: Record<string, unknown>;
}

export function formatDocuments(documents: TaskDocument[]): string {
  return documents.map((d, i) => `--- Document ${i + 1}: ${d.name} ---\n${d.content}\n--- End of document ${i + 1} ---`).join('\n\n');
}

function formatValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map((v) => `- ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Fills {{message}}, {{documents}} and any other {{name}} of the template: from the request's inputs first,
 * then the skill's config (its defaults, such as the review checklist); unknown names become empty.
 */
export function renderSkillPrompt(template: string, request: SkillRequest, defaults: Record<string, unknown>): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_, name: string) => {
    if (name === 'message') return request.message;
    if (name === 'documents') return formatDocuments(request.documents);
    return formatValue(request.inputs[name] ?? defaults[name]);
  });
}

/** The body of the first fenced code block, or the text itself. */
function unfence(text: string): string {
  const fenced = /```[A-Za-z]*[^\S\n]*\n([\s\S]*?)\n?```/.exec(text);
  return (fenced ? fenced[1]! : text).trim();
}

function toCell(value: unknown): TableCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

function tableFrom(value: unknown): TableContent | undefined {
  // A bare array of records is accepted too: its keys become the columns.
  if (Array.isArray(value) && value.every((r) => r && typeof r === 'object' && !Array.isArray(r))) {
    const columns = [...new Set(value.flatMap((r) => Object.keys(r as object)))];
    return tableFrom({ columns, rows: value });
  }
  const candidate = value as { columns?: unknown; rows?: unknown } | null;
  if (!candidate || !Array.isArray(candidate.columns) || !Array.isArray(candidate.rows) || !candidate.columns.length) return undefined;
  const columns = candidate.columns.map((c) => String(c));
  const rows = candidate.rows.map((row): TableCell[] => {
    if (Array.isArray(row)) return columns.map((_, i) => toCell(row[i]));
    if (row && typeof row === 'object') return columns.map((c) => toCell((row as Record<string, unknown>)[c]));
    return columns.map((_, i) => (i === 0 ? toCell(row) : null));
  });
  return { columns, rows };
}

/**
 * The JSON a table skill's reply must be when the route enforces a schema (a local model): every list and text is
 * bounded, so even a small model's reply ends, and ends as valid JSON.
 */
export const TABLE_REPLY_SCHEMA = {
  type: 'object',
  properties: {
    columns: { type: 'array', items: { type: 'string', maxLength: 100 }, minItems: 1, maxItems: 20 },
    rows: { type: 'array', items: { type: 'array', items: { type: 'string', maxLength: 500 }, maxItems: 20 }, maxItems: 200 },
  },
} as const;

/** Reads a table out of a model reply: JSON, possibly fenced or wrapped in prose. */
export function parseTable(reply: string): TableContent | undefined {
  const text = unfence(reply);
  for (const [open, close] of [['{', '}'], ['[', ']']] as const) {
    const start = text.indexOf(open);
    const end = text.lastIndexOf(close);
    if (start < 0 || end <= start) continue;
    try {
      const table = tableFrom(JSON.parse(text.slice(start, end + 1)));
      if (table) return table;
    } catch {
      // not JSON between these brackets: try the other kind
    }
  }
  return undefined;
}

/** A markdown report: the reply without a wrapping ```markdown fence; undefined when empty. */
export function parseReport(reply: string): string | undefined {
  const trimmed = reply.trim();
  const whole = /^```(?:markdown|md)?[^\S\n]*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  const report = (whole ? whole[1]! : trimmed).trim();
  return report || undefined;
}

export type ParsedOutput = { kind: 'table'; content: TableContent } | { kind: 'report'; content: string };

export function parseSkillOutput(kind: SkillOutputKind, reply: string): ParsedOutput | undefined {
  if (kind === 'table') {
    const content = parseTable(reply);
    return content && { kind, content };
  }
  const content = parseReport(reply);
  return content === undefined ? undefined : { kind, content };
}
