import type { Knex } from 'knex';

/**
 * Case-insensitive "contains" over any of the columns, with `%` and `_` in the text matched literally: the same
 * result on SQLite (whose LIKE ignores ASCII case) and PostgreSQL (whose LIKE does not).
 */
export function whereContains(query: Knex.QueryBuilder, columns: string[], text: string): void {
  const pattern = `%${text.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  query.where((any) => {
    for (const column of columns) any.orWhereRaw("LOWER(??) LIKE ? ESCAPE '\\'", [column, pattern]);
  });
}
