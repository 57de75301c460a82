import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../support/server.js';
import { replaceChunks, splitIntoChunks } from '../../server/knowledge/chunks.js';
import { searchChunks } from '../../server/knowledge/search.js';

const SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../knowledge-sources');

interface Hit {
  id: number;
  content: string;
  score: number;
  source: { type: string; id: number; title: string };
}

describe('knowledge search /api/knowledge/search', () => {
  let ts: TestServer;
  let employee: { token: string };
  const ids = new Map<string, number>();

  const scan = async () => (await ts.api.post('/api/knowledge/scan', { token: ts.adminToken })).body.data.results as { file_path: string; source_id: number }[];
  const approve = async (filePath: string) => {
    const res = await ts.api.post(`/api/knowledge/audit/${ids.get(filePath)}`, { token: ts.adminToken, body: { action: 'approve' } });
    assert.equal(res.status, 200, res.text);
  };
  const rememberIds = (results: { file_path: string; source_id: number }[]) => results.forEach((r) => ids.set(r.file_path, r.source_id));
  const search = async (q: string, limit?: number): Promise<Hit[]> => {
    const res = await ts.api.get(`/api/knowledge/search?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`, { token: employee.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };

  before(async () => {
    ts = await startTestServer();
    employee = await ts.user();
    await fs.cp(SAMPLES, ts.config.knowledgeDir, { recursive: true });
    await fs.writeFile(
      path.join(ts.config.knowledgeDir, 'ranking.md'),
      '# Ranking\n\n## Often\n\noxygenate the tank; oxygenate daily; oxygenate twice; oxygenate well.\n\n## Once\n\noxygenate, then feed the fish and clean the glass.\n\n## Pending words\n\nnothing here\n',
    );
    rememberIds(await scan());
    await approve('company-intro.md');
    await approve('products/wealth-management.md');
    await approve('ranking.md');
  });
  after(() => ts.close());

  test('finds Chinese text: two-character words, single characters and longer phrases', async () => {
    const hits = await search('理财');
    assert.ok(hits.length >= 3);
    assert.ok(hits.every((h) => h.content.includes('理财')));
    assert.ok(hits.some((h) => h.source.id === ids.get('products/wealth-management.md')));
    const intro = await search('双录');
    assert.ok(intro.length >= 1);
    assert.ok(intro.every((h) => h.content.includes('双录')));
    assert.deepEqual(intro[0]!.source, { type: 'knowledge', id: ids.get('company-intro.md'), title: '公司介绍：恒信财富管理' });
    assert.ok((await search('恒')).every((h) => h.content.includes('恒')));
    const phrase = await search('家族办公室');
    assert.equal(phrase.length, 1);
    assert.match(phrase[0]!.content, /家族办公室/);
    assert.ok((await search('理财 风险')).every((h) => h.content.includes('理财') && h.content.includes('风险')));
  });

  test('finds English words by prefix, whatever the case, accents or width', async () => {
    for (const q of ['Hengxin', 'hengx', 'HENGXIN wealth', 'ＨＥＮＧＸＩＮ']) {
      const hits = await search(q);
      assert.ok(hits.length >= 1, q);
      assert.ok(hits.every((h) => /hengxin/i.test(h.content)), q);
    }
    assert.deepEqual(await search('hengxinx'), []);
  });

  test('a question asked as a sentence still finds the passages sharing its words', async () => {
    const hits = await search('请问理财产品能否提前赎回？');
    assert.ok(hits.length >= 1);
    assert.match(hits[0]!.content, /提前赎回/);
  });

  test('ranks by relevance, highest score first, and honours limit', async () => {
    const hits = await search('oxygenate');
    assert.equal(hits.length, 2);
    assert.match(hits[0]!.content, /^Ranking > Often/);
    assert.ok(hits[0]!.score > hits[1]!.score);
    assert.equal((await search('恒信', 2)).length, 2);
    const scores = (await search('风险')).map((h) => h.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  });

  test('only approved content is searchable: pending, changed and rejected sources are not', async () => {
    assert.ok((await search('代客户填写')).every((h) => !h.content.includes('代客户填写')), 'the pending quiz');
    const file = path.join(ts.config.knowledgeDir, 'ranking.md');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('nothing here', 'nothing here yet'));
    await scan();
    assert.deepEqual(await search('oxygenate'), [], 'changed: pending again');
    await approve('ranking.md');
    assert.equal((await search('oxygenate')).length, 2);
  });

  test('media chunks written by replaceChunks are searchable with their source, and replaced as a whole', async () => {
    const db = ts.server.db;
    const origin = { source_type: 'media' as const, source_id: 4242, title: 'brochure.pdf' };
    const count = await replaceChunks(db, origin, splitIntoChunks('# 宣传册\n\n恒信尊享年金保险，保障终身 annuityplan。\n\n## 第二页\n\n另一段 annuityplan 文字。', 60));
    assert.equal(count, 2);
    const hits = await search('annuityplan');
    assert.equal(hits.length, 2);
    assert.deepEqual(hits[0]!.source, { type: 'media', id: 4242, title: 'brochure.pdf' });
    assert.equal((await searchChunks(db, '年金保险', 5))[0]!.source.id, 4242);
    assert.equal(await replaceChunks(db, origin, ['only one annuityplan left', '   ']), 1);
    assert.equal((await search('annuityplan')).length, 1);
    assert.equal(await replaceChunks(db, origin, []), 0);
    assert.deepEqual(await search('annuityplan'), []);
    // A term repeated hundreds of times in one chunk (beyond PostgreSQL's 256 positions per lexeme) is indexed too.
    assert.equal(await replaceChunks(db, origin, [`${'repeatedword '.repeat(300)}${'重复'.repeat(300)}`]), 1);
    assert.equal((await search('repeatedword 重复')).length, 1);
    await replaceChunks(db, origin, []);
  });

  test('bad queries are 400; queries without searchable characters or with query syntax are harmless', async () => {
    for (const query of ['', 'q=', 'q=%20%20', 'q=x&limit=0', 'q=x&limit=51', 'q=x&limit=abc']) {
      const res = await ts.api.get(`/api/knowledge/search?${query}`, { token: employee.token });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error, 'validation_failed', query);
    }
    assert.deepEqual(await search('!!! ？。'), []);
    for (const q of ['"理财" AND OR NOT * ( ) NEAR(a b) -x', "it's a 'quote' & | ! <-> :*", 'col:value ^start']) {
      const res = await ts.api.get(`/api/knowledge/search?q=${encodeURIComponent(q)}`, { token: employee.token });
      assert.equal(res.status, 200, `${q}: ${res.text}`);
    }
  });
});
