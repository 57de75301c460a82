// The SQLite client that keeps prepared statements (server/db/sqlite-client.ts), on a real database file: what knex
// reads back from each kind of query, transactions and savepoints run through exec, a failed statement that is
// prepared afresh, more statements than are kept, and a clean close.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { closeDatabase, openDatabase } from '../../server/db/knex.js';

describe('SQLite client with kept prepared statements', () => {
  let dataDir: string;
  let db: Knex;

  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-sqlite-client-'));
    db = await openDatabase({ dataDir });
    await db.schema.createTable('notes_probe', (t) => {
      t.increments('id');
      t.string('name').notNullable().unique();
      t.integer('n').notNullable().defaultTo(0);
    });
  });

  after(async () => {
    await db.destroy().catch(() => undefined);
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('inserts answer their id, updates and deletes their count, selects their rows, the same query many times over', async () => {
    const [first] = await db('notes_probe').insert({ name: 'a' });
    const [second] = await db('notes_probe').insert({ name: 'b' });
    assert.equal(second, first! + 1);
    for (let i = 0; i < 5; i++) assert.equal(await db('notes_probe').where({ name: 'a' }).increment('n', 1), 1);
    assert.equal(await db('notes_probe').whereIn('name', ['a', 'b']).update({ n: 7 }), 2);
    assert.deepEqual(await db('notes_probe').orderBy('id').select('name', 'n'), [{ name: 'a', n: 7 }, { name: 'b', n: 7 }]);
    const returned = await db('notes_probe').insert({ name: 'c' }).returning(['id', 'name']);
    assert.deepEqual(returned.map((r) => r.name), ['c']);
    assert.equal(await db('notes_probe').where({ name: 'c' }).del(), 1);
    const same = await Promise.all(Array.from({ length: 20 }, () => db('notes_probe').where({ name: 'b' }).first('n')));
    assert.deepEqual(new Set(same.map((r) => r.n)), new Set([7]), 'concurrent first uses of one text share its statement');
  });

  test('a transaction that throws leaves nothing; a failed savepoint undoes only its own part', async () => {
    await assert.rejects(
      db.transaction(async (trx) => {
        await trx('notes_probe').insert({ name: 'lost' });
        throw new Error('give up');
      }),
      /give up/,
    );
    assert.equal(await db('notes_probe').where({ name: 'lost' }).first(), undefined);

    await db.transaction(async (trx) => {
      await trx('notes_probe').insert({ name: 'kept' });
      await assert.rejects(
        trx.transaction(async (inner) => {
          await inner('notes_probe').insert({ name: 'inner' });
          throw new Error('inner gives up');
        }),
      );
    });
    assert.deepEqual((await db('notes_probe').whereIn('name', ['kept', 'inner']).pluck('name')).sort(), ['kept']);
  });

  test('a statement that failed works again with other values, inside and outside a transaction', async () => {
    const insert = (name: string) => db.raw('INSERT INTO notes_probe (name) VALUES (?)', [name]);
    await assert.rejects(insert('a'), /UNIQUE/);
    await insert('after-failure');
    await db.transaction(async (trx) => {
      await assert.rejects(trx.raw('INSERT INTO notes_probe (name) VALUES (?)', ['b']), /UNIQUE/);
      await trx.raw('INSERT INTO notes_probe (name) VALUES (?)', ['in-transaction']);
    });
    assert.equal((await db('notes_probe').whereIn('name', ['after-failure', 'in-transaction']).pluck('name')).length, 2);
  });

  test('more statements than are kept all answer, and the database still closes cleanly and reopens whole', async () => {
    for (let n = 1; n <= 300; n++) {
      const names = Array.from({ length: n }, (_, i) => `x${i}`);
      assert.deepEqual(await db('notes_probe').whereIn('name', [...names, 'a']).pluck('name'), ['a'], `${n} names`);
    }
    await db('notes_probe').insert({ name: 'last' });
    assert.deepEqual(await closeDatabase(db), { checkpointed: true });
    // SQLite removes the write-ahead log when its last connection closes; a statement left prepared keeps it open.
    await assert.rejects(fs.stat(path.join(dataDir, 'trainbench.sqlite-wal')), { code: 'ENOENT' });
    db = await openDatabase({ dataDir });
    assert.deepEqual(await db('notes_probe').where({ name: 'last' }).pluck('name'), ['last']);
  });
});
