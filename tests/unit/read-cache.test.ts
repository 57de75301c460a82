// ReadCache is bounded by bytes: many small rows or a few large pages, it never holds more than its budget.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { approximateSize, ReadCache } from '../../server/db/read-cache.js';

describe('ReadCache (bounded by bytes)', () => {
  const page = (kb: number) => ({ json: 'x'.repeat(kb * 512) }); // 2 bytes a character: kb KiB

  test('large values push the least recently used out; the bytes held stay within the budget', async () => {
    const cache = new ReadCache<{ json: string }>({ name: 'test', maxBytes: 64 * 1024, ttlMs: 60_000, sizeOf: (v) => 2 * v.json.length });
    const loads: string[] = [];
    const get = (key: string) => cache.get(key, async () => (loads.push(key), page(16)));
    for (const key of ['a', 'b', 'c']) await get(key);
    await get('a'); // a is now the most recently used
    await get('d');
    await get('e'); // 5 × 16 KiB > 64 KiB: b (least recently used) goes, then c
    assert.ok(cache.bytes <= 64 * 1024, `${cache.bytes} bytes held`);
    loads.length = 0;
    for (const key of ['a', 'd', 'e']) await get(key);
    assert.deepEqual(loads, [], 'the recently used stay');
    await get('b');
    assert.deepEqual(loads, ['b'], 'the least recently used was dropped');
  });

  test('a value larger than the whole budget is served but not kept', async () => {
    const cache = new ReadCache<{ json: string }>({ name: 'test', maxBytes: 8 * 1024, ttlMs: 60_000, sizeOf: (v) => 2 * v.json.length });
    let loads = 0;
    const huge = () => cache.get('huge', async () => (loads++, page(32)));
    assert.equal((await huge())!.json.length, 32 * 512);
    await huge();
    assert.deepEqual([loads, cache.bytes], [2, 0]);
  });

  test('approximateSize counts strings at two bytes a character, and what objects and arrays hold', () => {
    assert.ok(approximateSize({ name: '理财'.repeat(100) }) >= 400);
    assert.ok(approximateSize([{ a: 1 }, { a: 2 }]) > approximateSize([{ a: 1 }]));
    assert.ok(approximateSize('x'.repeat(1000)) >= 2000);
  });
});
