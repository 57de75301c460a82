// The call and the knowledge of the coaching tests (API and browser): a rep misstating the Steady Income Fund's
// commission and risk level to a worried customer, the approved handbook that says otherwise, and the chat model's
// answer the fake model server gives for it.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestServer } from '../support/server.js';

export const TURNS = [
  { side: 'rep', text: 'Hello, this is Anna from Hengxin Bank. I am calling about the Steady Income Fund.' },
  { side: 'customer', text: 'I am worried about the risk. What happens if the market falls?' },
  { side: 'rep', text: 'The Steady Income Fund is risk level R1, very safe. Our commission is only 3.5 percent.' },
  { side: 'customer', text: 'That commission sounds too high for me.' },
  { side: 'rep', text: 'Returns are guaranteed. Can I send you the product sheet?' },
] as const;

export const HANDBOOK = `---
title: Steady Income Fund handbook
domain: wealth
---

# Steady Income Fund handbook

## Product: Steady Income Fund

- code: SIF-1
- category: fund
- risk_level: R3
- commission_rate: 2.5%
- summary: A bond fund for steady income.

## Product: Growth Fund

- code: GRW-2
- category: fund
- risk_level: R4
- commission_rate: 3.5%

## Commission

The Steady Income Fund pays advisers a commission of 2.5 percent of the amount invested.

## Comparison

The Steady Income Fund is steadier than the Growth Fund. The Growth Fund pays a commission of 3.5 percent.

## Risk and returns

The Steady Income Fund is a medium risk product, risk level R3. Its returns are not guaranteed: the value of the fund can fall.
`;

export interface Chunk {
  id: number;
  content: string;
}

/** The approved chunk found by `q` whose text contains `needle`. */
export async function chunkContaining(ts: TestServer, q: string, needle: string): Promise<Chunk> {
  const hits = (await ts.api.get(`/api/knowledge/search?q=${encodeURIComponent(q)}&limit=20`, { token: ts.adminToken })).body.data as Chunk[];
  const hit = hits.find((h) => h.content.includes(needle));
  assert.ok(hit, `a chunk containing ${needle}: ${JSON.stringify(hits.map((h) => h.content))}`);
  return hit;
}

/** Writes the handbook into the knowledge folder, scans it and approves it: its product and chunks become approved knowledge. */
export async function approveHandbook(ts: TestServer): Promise<void> {
  await fs.mkdir(ts.config.knowledgeDir, { recursive: true });
  await fs.writeFile(path.join(ts.config.knowledgeDir, 'sif.md'), HANDBOOK);
  const scanned = await ts.api.post('/api/knowledge/scan', { token: ts.adminToken });
  const source = scanned.body.data.results.find((r: { file_path: string }) => r.file_path === 'sif.md');
  const approved = await ts.api.post(`/api/knowledge/audit/${source.source_id}`, { token: ts.adminToken, body: { action: 'approve' } });
  assert.equal(approved.status, 200, approved.text);
}

/** The chat model's answer to the coaching analysis: two objections and a contradiction citing the risk chunk, plus items that cite nothing real (left out). */
export const modelReply = (riskChunkId: number) => ({
  objections: [
    {
      customer_segments: [1],
      summary: '担心市场下跌的风险',
      rep_segments: [2],
      handling: 'partly_answered',
      assessment: '只说“很安全”，没有如实说明风险。',
      better_answer: '说明产品为中风险（R3），收益不保证，再了解客户能承受的波动。',
      chunk_ids: [riskChunkId],
    },
    { customer_segments: [3], summary: '觉得佣金太高', rep_segments: [], handling: 'not_answered', assessment: '没有回应。', better_answer: '解释费用结构与服务价值。' },
    // A "customer" objection pointing at the rep's own segment rests on nothing the customer said: left out.
    { customer_segments: [2], summary: 'not a customer segment' },
  ],
  contradictions: [
    { rep_segment: 4, claim: 'Returns are guaranteed.', stated: '收益有保证', correct: '稳盈基金的收益不保证，基金净值可能下跌。', chunk_id: riskChunkId, explanation: '已审核资料明确说收益不保证。' },
    // Cites a chunk that was never offered: left out.
    { rep_segment: 4, claim: 'x', correct: 'y', chunk_id: 999_999 },
    // A customer's segment is not something the rep stated: left out.
    { rep_segment: 1, claim: 'z', correct: 'w', chunk_id: riskChunkId },
  ],
  practice: [{ title: '练习如实说明风险', detail: '用 R3 中风险的说法回应客户的担心。', segments: [1, 2] }],
});
