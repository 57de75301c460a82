// Issue 33, item 2: what was accepted stays accepted. Product sources written before risk levels were checked
// (risk_level: low, 中风险 …) approve, their words read as levels; a value that names no level is kept as written
// with a warning in the approval's answer, never a refusal of the whole source; such a product can be saved again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;

before(async () => {
  ts = await startTestServer();
});
after(() => ts.close());

async function approve(file: string, content: string) {
  await fs.mkdir(ts.config.knowledgeDir, { recursive: true });
  await fs.writeFile(path.join(ts.config.knowledgeDir, file), content);
  const scanned = await ts.api.post('/api/knowledge/scan', { token: ts.adminToken });
  assert.equal(scanned.status, 200, scanned.text);
  const id = (scanned.body.data.results as { file_path: string; source_id: number }[]).find((r) => r.file_path === file)!.source_id;
  return ts.api.post(`/api/knowledge/audit/${id}`, { token: ts.adminToken, body: { action: 'approve' } });
}

const product = async (code: string) =>
  ((await ts.api.get('/api/products?status=all', { token: ts.adminToken })).body.data as { id: number; code: string; risk_level: string }[]).find((p) => p.code === code)!;

const block = (code: string, level: string) => `## Product: ${code}\n\n- code: ${code}\n- risk_level: ${level}\n- summary: ${code} summary\n`;

describe('product risk levels read generously', () => {
  test('a source written in the old format approves, its words read as levels', async () => {
    const levels = { 'OLD-1': 'low', 'OLD-2': 'Medium-Low', 'OLD-3': 'medium', 'OLD-4': 'MEDIUM HIGH', 'OLD-5': 'high', 'OLD-6': 'PR3', 'OLD-7': '中高风险', 'OLD-8': 'r 2' };
    const res = await approve('old-format.md', `# Old products\n\n${Object.entries(levels).map(([code, level]) => block(code, level)).join('\n')}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.products, 8);
    assert.equal(res.body.data.warnings, undefined, 'nothing to warn about');
    const stored = await Promise.all(Object.keys(levels).map(async (code) => (await product(code)).risk_level));
    assert.deepEqual(stored, ['R1', 'R2', 'R3', 'R4', 'R5', 'R3', 'R4', 'R2']);
  });

  test('a value that names no level is kept as written, with a warning naming the file and line', async () => {
    const res = await approve('unknown-level.md', `# Mixed\n\n${block('ODD-1', '稳健')}\n${block('ODD-2', 'low')}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.products, 2);
    const warnings = res.body.data.warnings as { file_path: string; line: number; problem: string }[];
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.file_path, 'unknown-level.md');
    assert.equal(warnings[0]!.line, 6);
    assert.match(warnings[0]!.problem, /ODD-1.*稳健.*risk_match/);
    assert.equal((await product('ODD-1')).risk_level, '稳健');
    assert.equal((await product('ODD-2')).risk_level, 'R1');
  });

  test('a product stored with such a value can be saved again; a new unreadable value is still refused', async () => {
    const odd = await product('ODD-1');
    const again = await ts.api.put(`/api/products/${odd.id}`, { token: ts.adminToken, body: { name: 'ODD-1 renamed', risk_level: '稳健' } });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.data.risk_level, '稳健');
    const other = await ts.api.put(`/api/products/${odd.id}`, { token: ts.adminToken, body: { risk_level: 'R6' } });
    assert.equal(other.status, 400);
    assert.equal(other.body.error, 'validation_failed');
    const created = await ts.api.post('/api/products', { token: ts.adminToken, body: { name: 'New', code: 'NEW-1', risk_level: 'very risky' } });
    assert.equal(created.status, 400);
    const words = await ts.api.put(`/api/products/${odd.id}`, { token: ts.adminToken, body: { risk_level: 'medium-high' } });
    assert.equal(words.body.data.risk_level, 'R4');
    assert.equal((await product('ODD-1')).risk_level, 'R4');
  });
});
