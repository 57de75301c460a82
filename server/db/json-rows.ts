// Many rows bound as one JSON parameter. node-sqlite3 binds every parameter through N-API on the main thread (about a
// microsecond each) and knex compiles a multi-row insert value by value, wrapping identifiers as it goes; a batch of
// exam submits writes thousands of values. One JSON array of rows, unpacked by the database (json_each on SQLite,
// json_array_elements on PostgreSQL), costs a JSON.stringify instead: a fifth of the main-thread time.
import type { Knex } from 'knex';
import { isPostgres, type Db } from './knex.js';

export type ColumnType = 'text' | 'integer' | 'real' | 'boolean';

/** Column names in row order, with the type PostgreSQL casts each JSON value to (SQLite takes JSON values as they are). */
export type Columns<R> = readonly (readonly [keyof R & string, ColumnType])[];

const PG_TYPES: Record<ColumnType, string> = { text: 'text', integer: 'integer', real: 'double precision', boolean: 'boolean' };

const sources = new WeakMap<object, { sqlite: string; pg: string }>();

/** `SELECT <each column> FROM <the rows of one JSON parameter>`, built once per column list. */
function sourceSql(db: Db, columns: Columns<never>): string {
  let sql = sources.get(columns);
  if (!sql) {
    sql = {
      sqlite: `SELECT ${columns.map(([name], i) => `value->>${i} AS ${name}`).join(', ')} FROM json_each(?)`,
      pg: `SELECT ${columns.map(([name, type], i) => `(value->>${i})::${PG_TYPES[type]} AS ${name}`).join(', ')} FROM json_array_elements(CAST(? AS json)) AS r(value)`,
    };
    sources.set(columns, sql);
  }
  return isPostgres(db) ? sql.pg : sql.sqlite;
}

/** The rows as a SELECT, for `INSERT … ? …` or `UPDATE … FROM (?) AS v …` (knex embeds a Raw binding as SQL). */
export function jsonRows<R>(db: Db, columns: Columns<R>, rows: readonly R[]): Knex.Raw {
  const values = rows.map((row) => columns.map(([name]) => row[name] ?? null));
  return db.raw(sourceSql(db, columns as Columns<never>), [JSON.stringify(values)]);
}

/** The rows a raw statement returned (RETURNING), whichever the dialect. */
export const returnedRows = <T>(db: Db, response: unknown): T[] => (isPostgres(db) ? (response as { rows: T[] }).rows : (response as T[]));

/**
 * `INSERT INTO table (columns) SELECT … WHERE true <tail>`, the tail being ON CONFLICT and RETURNING clauses (SQLite
 * needs the WHERE to read an ON CONFLICT after a SELECT as an upsert). Returns the RETURNING rows.
 */
export async function insertJsonRows<R, T = never>(db: Db, table: string, columns: Columns<R>, rows: readonly R[], tail = ''): Promise<T[]> {
  if (!rows.length) return [];
  const names = columns.map(([name]) => name).join(', ');
  return returnedRows<T>(db, await db.raw(`INSERT INTO ${table} (${names}) ? WHERE true ${tail}`, [jsonRows(db, columns, rows)]));
}
