import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../support/server.js';

const SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../knowledge-sources');

describe('knowledge sources /api/knowledge', () => {
  let ts: TestServer;
  let employee: { token: string };
  let dir: string;

  before(async () => {
    ts = await startTestServer();
    employee = await ts.user();
    dir = ts.config.knowledgeDir;
    await fs.mkdir(dir, { recursive: true });
  });
  after(() => ts.close());

  const write = async (relative: string, content: string) => {
    await fs.mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await fs.writeFile(path.join(dir, relative), content);
  };
  type ScanResult = { file_path: string; status: string; change?: string; title: string; source_id?: number };
  const scan = async () => {
    const res = await ts.api.post('/api/knowledge/scan', { token: ts.adminToken });
    assert.equal(res.status, 200, res.text);
    return res.body.data.results as ScanResult[];
  };
  const entry = (results: ScanResult[], filePath: string) => results.find((r) => r.file_path === filePath);
  const pick = (result: ScanResult) => [result.status, result.change];
  const audit = (id: number, body: unknown, token = ts.adminToken) => ts.api.post(`/api/knowledge/audit/${id}`, { token, body });
  const status = async (id: number) => (await ts.api.get(`/api/knowledge/status/${id}`, { token: employee.token })).body.data;
  const sourceIdOf = async (filePath: string) => entry(await scan(), filePath)!.source_id!;
  const searchHits = async (q: string) => {
    const res = await ts.api.get(`/api/knowledge/search?q=${encodeURIComponent(q)}&limit=50`, { token: employee.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data as { content: string; source: { type: string; id: number } }[];
  };
  const searchedText = async (q: string) => (await searchHits(q)).map((h) => h.content).join('\n');

  test('401 without a token, 403 for employees on admin endpoints', async () => {
    for (const [method, p] of [['post', '/api/knowledge/scan'], ['get', '/api/knowledge/audit-list'], ['post', '/api/knowledge/audit/1'], ['get', '/api/knowledge/status/1'], ['get', '/api/knowledge/sources/1'], ['get', '/api/knowledge/search?q=x']] as const) {
      const res = await ts.api[method](p, { body: method === 'post' ? { action: 'approve' } : undefined });
      assert.equal(res.status, 401, `${method} ${p}`);
      assert.equal(res.body.error, 'unauthorized');
    }
    for (const [method, p] of [['post', '/api/knowledge/scan'], ['get', '/api/knowledge/audit-list'], ['post', '/api/knowledge/audit/1']] as const) {
      const res = await ts.api[method](p, { token: employee.token, body: method === 'post' ? { action: 'approve' } : undefined });
      assert.equal(res.status, 403, `${method} ${p}`);
      assert.equal(res.body.error, 'forbidden');
    }
  });

  test('scan: new files are created pending, unchanged ones left alone, changed ones pending again', async () => {
    await fs.cp(SAMPLES, path.join(dir, 'samples'), { recursive: true });
    const first = await scan();
    const intro = entry(first, 'samples/company-intro.md');
    assert.deepEqual(
      first.filter((r) => r.file_path.startsWith('samples/')).map((r) => [r.file_path, r.status, r.change]),
      [['samples/company-intro.md', 'created', 'new'], ['samples/products/wealth-management.md', 'created', 'new'], ['samples/quizzes/compliance-quiz.md', 'created', 'new']],
    );
    assert.equal(intro!.title, '公司介绍：恒信财富管理');
    assert.equal(entry(first, 'samples/quizzes/compliance-quiz.md')!.title, '销售合规基础测验');

    const source = await status(intro!.source_id!);
    assert.equal(source.status, 'pending');
    assert.equal(source.domain, 'company');
    assert.equal(source.file_path, 'samples/company-intro.md');
    assert.equal(source.reject_reason, null);
    assert.match(source.content_sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual([source.products, source.chunks, source.questions], [0, 0, 0]);

    const again = await scan();
    assert.ok(again.filter((r) => r.file_path.startsWith('samples/')).every((r) => r.status === 'unchanged' && r.change === undefined));
    const all = await ts.api.get('/api/knowledge/audit-list?status=all&size=200', { token: ts.adminToken });
    assert.equal(all.body.data.items.filter((s: { file_path: string }) => s.file_path.startsWith('samples/')).length, 3);

    await fs.appendFile(path.join(dir, 'samples/company-intro.md'), '\n## 新增章节\n\n补充说明。\n');
    const changed = await scan();
    // Spec part 3 and 4.7: a new or changed file is reported `created`; `change` tells them apart.
    assert.deepEqual(pick(entry(changed, 'samples/company-intro.md')!), ['created', 'changed']);
    assert.equal(entry(changed, 'samples/company-intro.md')!.source_id, intro!.source_id);
    assert.equal(entry(changed, 'samples/quizzes/compliance-quiz.md')!.status, 'unchanged');
  });

  test('scan never leaves the knowledge directory: traversal through symlinks is ignored', async () => {
    const outside = path.join(ts.dataDir, 'outside');
    await fs.mkdir(outside, { recursive: true });
    await fs.writeFile(path.join(outside, 'secret.md'), '# Secret\n\nnot for the knowledge base\n');
    await fs.symlink(path.join(outside, 'secret.md'), path.join(dir, 'link-out.md'));
    await fs.symlink(outside, path.join(dir, 'dir-out'));
    await fs.symlink('../outside/secret.md', path.join(dir, 'relative-out.md'));
    await write('inside/real.md', '# Inside\n\ntext\n');
    await fs.symlink(path.join(dir, 'inside/real.md'), path.join(dir, 'link-in.md'));
    await fs.symlink(dir, path.join(dir, 'inside/loop'));
    await write('.hidden/x.md', '# hidden\n');
    await write('notes.txt', 'not markdown');
    const deep = `${Array.from({ length: 4 }, (_, i) => String(i).repeat(250)).join('/')}/deep.md`;
    await write(deep, '# Deep\n');

    const results = await scan();
    const paths = results.map((r) => r.file_path);
    for (const p of ['link-out.md', 'dir-out/secret.md', 'relative-out.md', '.hidden/x.md', 'notes.txt']) assert.ok(!paths.includes(p), p);
    assert.ok(!paths.some((p) => p.includes('loop')), 'a symlink loop is not followed');
    assert.equal(entry(results, 'inside/real.md')!.status, 'created');
    assert.equal(entry(results, 'link-in.md')!.status, 'created');
    assert.deepEqual(entry(results, deep), { file_path: deep, status: 'skipped', title: 'deep', reason: 'path longer than 1000 characters' });

    // A scanned file replaced by a symlink to the outside is not read at approve either.
    const id = entry(results, 'inside/real.md')!.source_id!;
    await fs.rm(path.join(dir, 'inside/real.md'));
    await fs.symlink(path.join(outside, 'secret.md'), path.join(dir, 'inside/real.md'));
    const res = await audit(id, { action: 'approve' });
    assert.equal(res.status, 404);
    assert.equal(res.body.error, 'knowledge.file_missing');
    assert.equal((await status(id)).status, 'pending');
  });

  test('approve ingests products, questions and chunks and reports the counts', async () => {
    const products = await sourceIdOf('samples/products/wealth-management.md');
    const res = await audit(products, { action: 'approve' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body.data).sort(), ['chunks', 'products', 'questions', 'source_id', 'status']);
    assert.equal(res.body.data.status, 'approved');
    assert.equal(res.body.data.source_id, products);
    assert.equal(res.body.data.products, 3);
    assert.equal(res.body.data.questions, 0);
    assert.ok(res.body.data.chunks >= 5);

    const list = await ts.api.get('/api/products?status=all', { token: employee.token });
    const product = list.body.data.find((p: { code: string }) => p.code === 'HX-WY-001');
    assert.equal(product.name, '恒信稳盈一号');
    assert.equal(product.category, 'capital_consulting');
    assert.equal(product.risk_level, 'R1');
    assert.equal(product.commission_rate, 0.3);
    assert.equal(product.attributes['起购金额'], '1万元');
    assert.match(product.description, /银行存款/);

    const after = await status(products);
    assert.equal(after.status, 'approved');
    assert.deepEqual([after.products, after.chunks, after.questions], [3, res.body.data.chunks, 0]);
    assert.ok(after.reviewed_at);
    assert.equal(after.title, '2025年度理财产品手册');
    assert.equal(after.domain, 'product');

    const again = await audit(products, { action: 'approve' });
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'knowledge.not_pending');
  });

  test('approving a quiz adds questions; approving a changed version updates them instead of adding copies', async () => {
    const quiz = await sourceIdOf('samples/quizzes/compliance-quiz.md');
    const res = await audit(quiz, { action: 'approve' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.questions, 4);
    assert.equal(res.body.data.products, 0);
    const questions = async () => (await ts.api.get('/api/exam/questions?domain=compliance&status=all', { token: ts.adminToken })).body.data as { id: number; type: string; stem: string; answer: string[]; options: { key: string }[]; status: string; explanation: string }[];
    const before = await questions();
    assert.equal(before.length, 4);
    const multiple = before.find((q) => q.type === 'multiple')!;
    assert.deepEqual(multiple.answer, ['A', 'B', 'D']);
    assert.deepEqual(multiple.options.map((o) => o.key), ['A', 'B', 'C', 'D']);
    const trueFalse = before.filter((q) => q.type === 'true_false');
    assert.deepEqual(trueFalse.map((q) => q.answer), [['true'], ['false']]);
    assert.deepEqual(trueFalse[0]!.options.map((o) => o.key).sort(), ['false', 'true']);
    // Question blocks give answers away: they are not searchable chunks.
    assert.doesNotMatch(await searchedText('代客户填写风险测评问卷'), /代客户填写/);

    const file = path.join(dir, 'samples/quizzes/compliance-quiz.md');
    const text = await fs.readFile(file, 'utf8');
    const lastQuestion = text.lastIndexOf('## Question');
    await fs.writeFile(file, text.slice(0, lastQuestion).replace('揭示风险是必须履行的义务', '揭示风险是法定义务'));
    assert.deepEqual(pick(entry(await scan(), 'samples/quizzes/compliance-quiz.md')!), ['created', 'changed']);
    const second = await audit(quiz, { action: 'approve' });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.data.questions, 3);
    const afterward = await questions();
    assert.equal(afterward.length, 4, 'no copies');
    assert.equal(afterward.find((q) => q.id === multiple.id)!.explanation.startsWith('揭示风险是法定义务'), true);
    assert.equal(afterward.find((q) => q.stem.startsWith('客户的风险测评结果长期有效'))!.status, 'disabled');
  });

  test('a malformed block fails the approve with the file and line, ingesting nothing', async () => {
    const cases: [string, string, number, RegExp][] = [
      ['no-code.md', '# T\n\n## Product: 无编码产品\n\n- category: x\n', 3, /no "- code/],
      ['bad-answer.md', '# T\n\n## Question\n- type: single\n- stem: 题干\n- A. 一\n- B. 二\n- answer: E\n', 8, /answer/],
      ['unknown-key.md', '# T\n\n## Question\n- type: single\n- stem: 题干\n- anwser: A\n', 6, /Unexpected line/],
      ['bad-type.md', '# T\n\n## Question\n- type: essay\n- stem: 题干\n', 4, /type must be/],
      ['bad-yaml.md', '---\ntitle: [unclosed\n---\n# T\n', 2, /YAML/],
      // Aliases that multiply into billions of values: refused by yaml, reported as a format error.
      ['alias-bomb.md', '---\na: &a [x, x, x, x, x, x, x, x, x]\n' + ['b', 'c', 'd', 'e', 'f', 'g'].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefg'[i]}`).join(', ')}]`).join('\n') + '\n---\n# T\n', 2, /alias/i],
      ['bad-rate.md', '# T\n\n## Product: P\n- code: RATE-1\n- commission_rate: lots\n', 5, /commission_rate/],
      ['two-answers.md', '# T\n\n## Question\n- type: single\n- stem: 题干\n- A. 一\n- B. 二\n- answer: A, B\n', 8, /exactly one answer/],
    ];
    for (const [name, content] of cases) await write(`bad/${name}`, content);
    // A valid product first, then a question bound to a course that does not exist: caught inside the transaction.
    await write('bad/late-failure.md', '# Late\n\n## Product: 先入库的产品\n- code: LATE-001\n\n正文 zebrafishword\n\n## Question\n- type: true_false\n- stem: 判断题\n- answer: 对\n- course_id: 999999\n');
    const results = await scan();
    for (const [name, , line, problem] of [...cases, ['late-failure.md', '', 12, /course_id 999999 does not exist/] as [string, string, number, RegExp]]) {
      const id = entry(results, `bad/${name}`)!.source_id!;
      const res = await audit(id, { action: 'approve' });
      assert.equal(res.status, 400, `${name}: ${res.text}`);
      assert.equal(res.body.error, 'knowledge.invalid_format', name);
      assert.match(res.body.message, new RegExp(`bad/${name}, line ${line}:`), name);
      assert.match(res.body.message, problem, name);
      assert.deepEqual([res.body.details.file_path, res.body.details.line], [`bad/${name}`, line], name);
      const source = await status(id);
      assert.equal(source.status, 'pending', name);
      assert.equal(source.reviewed_at, null, name);
    }
    const products = await ts.api.get('/api/products?status=all', { token: ts.adminToken });
    assert.ok(!products.body.data.some((p: { code: string }) => p.code === 'LATE-001' || p.code === 'RATE-1'));
    assert.deepEqual(await searchHits('zebrafishword'), []);
  });

  test('reject needs a reason; only pending sources are audited; the body is validated', async () => {
    await write('reject/me.md', '# 待驳回\n\n内容 rejectable\n');
    const id = await sourceIdOf('reject/me.md');
    for (const body of [{ action: 'reject' }, { action: 'reject', reject_reason: '   ' }, {}, { action: 'publish' }]) {
      const res = await audit(id, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'validation_failed');
      assert.equal((await status(id)).status, 'pending');
    }
    // Each refusal says what is wrong with the reason, not that it is missing.
    for (const [reason, message] of [[undefined, /is required to reject/], ['x'.repeat(2001), /at most 2000 characters/], [['x'], /must be a string/]] as const) {
      const res = await audit(id, { action: 'reject', reject_reason: reason });
      assert.equal(res.status, 400);
      assert.match(res.body.message, message, JSON.stringify(reason)?.slice(0, 20));
    }
    const res = await audit(id, { action: 'reject', reject_reason: '内容过时' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, { status: 'rejected', source_id: id, reject_reason: '内容过时' });
    const source = await status(id);
    assert.equal(source.status, 'rejected');
    assert.equal(source.reject_reason, '内容过时');
    assert.equal((await audit(id, { action: 'approve' })).status, 409);
    assert.equal((await audit(id, { action: 'reject', reject_reason: 'again' })).status, 409);
    assert.deepEqual(await searchHits('rejectable'), []);
    // Unchanged, it stays rejected; changed, it is pending again.
    assert.equal(entry(await scan(), 'reject/me.md')!.status, 'unchanged');
    assert.equal((await status(id)).status, 'rejected');
    await write('reject/me.md', '# 待驳回\n\n内容已更新\n');
    assert.deepEqual(pick(entry(await scan(), 'reject/me.md')!), ['created', 'changed']);
    const pendingAgain = await status(id);
    assert.deepEqual([pendingAgain.status, pendingAgain.reject_reason, pendingAgain.reviewed_at], ['pending', null, null]);
  });

  test('approve re-reads the file: changed since the scan is a 409, gone is a 404, missing files are reported by the scan', async () => {
    await write('moving/a.md', '# A\n\nfirst\n');
    const id = await sourceIdOf('moving/a.md');
    await write('moving/a.md', '# A\n\nsecond\n');
    const changed = await audit(id, { action: 'approve' });
    assert.equal(changed.status, 409);
    assert.equal(changed.body.error, 'knowledge.file_changed');
    assert.match(changed.body.message, /moving\/a\.md changed since it was scanned/);
    await fs.rm(path.join(dir, 'moving/a.md'));
    const gone = await audit(id, { action: 'approve' });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error, 'knowledge.file_missing');
    assert.equal((await status(id)).status, 'pending');
    assert.equal(entry(await scan(), 'moving/a.md')!.status, 'missing');
  });

  test('status and sources read one source back; unknown ids are 404, malformed ids 400', async () => {
    const id = await sourceIdOf('samples/company-intro.md');
    const viaStatus = await ts.api.get(`/api/knowledge/status/${id}`, { token: employee.token });
    const viaSources = await ts.api.get(`/api/knowledge/sources/${id}`, { token: employee.token });
    assert.equal(viaStatus.status, 200);
    assert.deepEqual(viaSources.body.data, viaStatus.body.data);
    for (const p of ['/api/knowledge/status/999999', '/api/knowledge/sources/999999']) {
      const res = await ts.api.get(p, { token: employee.token });
      assert.equal(res.status, 404, p);
      assert.equal(res.body.error, 'not_found');
    }
    assert.equal((await audit(999999, { action: 'approve' })).status, 404);
    assert.equal((await audit(999999, { action: 'reject', reject_reason: 'x' })).status, 404);
    assert.equal((await ts.api.get('/api/knowledge/status/abc', { token: employee.token })).status, 400);
  });

  test('audit-list pages by status, pending by default', async () => {
    const pending = await ts.api.get('/api/knowledge/audit-list?page=1&size=2', { token: ts.adminToken });
    assert.equal(pending.status, 200);
    const page = pending.body.data;
    assert.deepEqual(Object.keys(page).sort(), ['items', 'page', 'size', 'total']);
    assert.equal(page.page, 1);
    assert.equal(page.size, 2);
    assert.equal(page.items.length, 2);
    assert.ok(page.total > 2);
    assert.ok(page.items.every((s: { status: string }) => s.status === 'pending'));
    const second = await ts.api.get('/api/knowledge/audit-list?page=2&size=2', { token: ts.adminToken });
    assert.notDeepEqual(second.body.data.items.map((s: { id: number }) => s.id), page.items.map((s: { id: number }) => s.id));

    const approved = await ts.api.get('/api/knowledge/audit-list?status=approved', { token: ts.adminToken });
    assert.ok(approved.body.data.items.length >= 2);
    assert.ok(approved.body.data.items.every((s: { status: string }) => s.status === 'approved'));
    for (const query of ['status=done', 'page=0', 'size=1000']) {
      assert.equal((await ts.api.get(`/api/knowledge/audit-list?${query}`, { token: ts.adminToken })).status, 400, query);
    }
  });
});
