// The initial passwords of a users import as a CSV file for Excel: a BOM so that it reads the Chinese names, and
// every cell that Excel would take for a formula (starting with = + - @, or a tab or carriage return before one)
// prefixed with ' so that it stays text (CSV injection). No imports: the server's unit tests read it too.

const FORMULA_START = /^[=+\-@\t\r]/;

export const neutralizeCell = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);

export function credentialsCsvText(credentials: { username: string; full_name: string; password: string }[], header: string[]): string {
  const quote = (v: string) => `"${neutralizeCell(v).replace(/"/g, '""')}"`;
  const lines = [header, ...credentials.map((c) => [c.username, c.full_name, c.password])].map((cells) => cells.map(quote).join(','));
  return '\ufeff' + lines.join('\r\n');
}
