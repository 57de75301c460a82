// knex's SQLite client with prepared statements kept per connection. knex's own client runs each query as
// Database#all or #run: node-sqlite3 prepares the statement, runs it and finalizes it, three jobs on the thread pool,
// and the event loop must take the result of the first before it starts the second. Under load every such hand-over
// waits behind the requests the loop is serving, so a transaction of seven statements took three times as long as
// alone. Here a statement is prepared once per connection and each later run is one job, which also spares SQLite
// parsing and planning it again; transaction control (BEGIN, COMMIT, savepoints) runs through exec, one job as well.
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type sqlite3 from 'sqlite3';

/** What knex hands a dialect's _query and reads back from it (knex/lib/dialects/sqlite3). */
interface QueryObject {
  sql: string;
  bindings?: unknown[];
  method?: string;
  returning?: unknown;
  response?: unknown;
  context?: unknown;
}

interface Sqlite3Dialect {
  _query(connection: sqlite3.Database, obj: QueryObject): Promise<QueryObject>;
  destroyRawConnection(connection: sqlite3.Database): Promise<void>;
}

const KnexSqlite3Client = createRequire(import.meta.url)('knex/lib/dialects/sqlite3/index.js') as new (config: Knex.Config) => Sqlite3Dialect;

/** Prepared statements kept per connection; the least recently used beyond this are finalized. */
const KEPT_STATEMENTS = 128;
const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;
/** Only data statements are kept: schema and pragma statements run once, and are not worth holding. */
const KEEPABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Per connection, by SQL text: statements being prepared or prepared, most recently used last. */
const statementsOf = new WeakMap<sqlite3.Database, Map<string, Promise<sqlite3.Statement>>>();

function keptStatements(connection: sqlite3.Database): Map<string, Promise<sqlite3.Statement>> {
  let kept = statementsOf.get(connection);
  if (!kept) statementsOf.set(connection, (kept = new Map()));
  return kept;
}

const finalize = (statement: Promise<sqlite3.Statement>): Promise<void> =>
  statement.then((prepared) => new Promise<void>((resolve) => prepared.finalize(() => resolve())), () => undefined);

function prepare(connection: sqlite3.Database, sql: string): Promise<sqlite3.Statement> {
  return new Promise((resolve, reject) => {
    const statement = connection.prepare(sql, (error: Error | null) => (error ? reject(error) : resolve(statement)));
  });
}

/** Forgets a statement (a failed one, or the least recently used) and finalizes it once its queued runs are done. */
function discard(connection: sqlite3.Database, sql: string, statement: Promise<sqlite3.Statement>): void {
  const kept = keptStatements(connection);
  if (kept.get(sql) === statement) kept.delete(sql);
  void finalize(statement);
}

/** The connection's prepared statement for `sql`; concurrent first uses share one preparation. */
function statementFor(connection: sqlite3.Database, sql: string): Promise<sqlite3.Statement> {
  const kept = keptStatements(connection);
  const known = kept.get(sql);
  if (known) {
    kept.delete(sql);
    kept.set(sql, known);
    return known;
  }
  const statement = prepare(connection, sql);
  kept.set(sql, statement);
  statement.catch(() => kept.get(sql) === statement && kept.delete(sql));
  if (kept.size > KEPT_STATEMENTS) {
    const [oldestSql, oldest] = kept.entries().next().value!;
    discard(connection, oldestSql, oldest);
  }
  return statement;
}

/** knex runs inserts and updates without RETURNING as `run` (it reads lastID and changes), everything else as `all`. */
const usesRun = ({ method, returning }: QueryObject): boolean =>
  ((method === 'insert' || method === 'update') && !returning) || method === 'counter' || method === 'del';

function execute(statement: sqlite3.Statement, obj: QueryObject): Promise<QueryObject> {
  return new Promise((resolve, reject) => {
    const done = function (this: unknown, error: Error | null, rows?: unknown) {
      if (error) return reject(error);
      obj.response = rows;
      obj.context = this;
      resolve(obj);
    };
    if (usesRun(obj)) statement.run(obj.bindings ?? [], done);
    else statement.all(obj.bindings ?? [], done);
  });
}

export class PreparedSqlite3Client extends KnexSqlite3Client {
  override async _query(connection: sqlite3.Database, obj: QueryObject): Promise<QueryObject> {
    if (!obj.bindings?.length && TRANSACTION_CONTROL.test(obj.sql)) {
      await new Promise<void>((resolve, reject) => connection.exec(obj.sql, (error) => (error ? reject(error) : resolve())));
      obj.response = [];
      obj.context = {};
      return obj;
    }
    if (!KEEPABLE.test(obj.sql)) return super._query(connection, obj);
    const statement = statementFor(connection, obj.sql);
    try {
      return await execute(await statement, obj);
    } catch (error) {
      // A statement that failed is left as SQLite left it: the next query of the same text prepares a fresh one.
      discard(connection, obj.sql, statement);
      throw error;
    }
  }

  /** SQLite refuses to close a connection with statements still prepared. */
  override async destroyRawConnection(connection: sqlite3.Database): Promise<void> {
    const kept = keptStatements(connection);
    await Promise.all([...kept.values()].map(finalize));
    kept.clear();
    return super.destroyRawConnection(connection);
  }
}
