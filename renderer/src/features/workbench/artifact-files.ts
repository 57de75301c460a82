import type { TableContent, TaskArtifact } from '../../api/types';

const cell = (value: TableContent['rows'][number][number]) => {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** A table as CSV that Excel opens with its Chinese intact (UTF-8 with a byte-order mark, CRLF lines). */
export const tableCsv = (table: TableContent): string => '\uFEFF' + [table.columns, ...table.rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';

/** A file name from the artifact's title: characters that file systems refuse become "_". */
const fileBase = (artifact: TaskArtifact) => artifact.title.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim() || `artifact-${artifact.id}`;

/** The artifact as the file a person downloads: a table as .csv, a report as Markdown. */
export function artifactFile(artifact: TaskArtifact): { name: string; blob: Blob } {
  if (artifact.kind === 'table') return { name: `${fileBase(artifact)}.csv`, blob: new Blob([tableCsv(artifact.content)], { type: 'text/csv;charset=utf-8' }) };
  return { name: `${fileBase(artifact)}.md`, blob: new Blob([artifact.content], { type: 'text/markdown;charset=utf-8' }) };
}
