// Scripted Chinese sales calls for the compliance tests (API, browser, bench): each turn is what the fake cloud
// transcription route answers as a segment with its speaker, so the transcript is exact.
import assert from 'node:assert/strict';
import type { TestServer } from '../support/server.js';
import type { FakeModel } from '../support/fake-model.js';
import { form } from './media-fixtures.js';
import { toneWav } from './audio-fixtures.js';

export interface Turn {
  side: 'rep' | 'customer' | 'A' | 'B';
  text: string;
}

/** A call that keeps every default rule (product 稳盈理财, R2, a 15-day cooling-off period; customer C2). */
export const COMPLIANT: Turn[] = [
  { side: 'rep', text: '您好，我是恒信银行的理财经理王芳，工号１２３４。' },
  { side: 'customer', text: '你好。' },
  { side: 'rep', text: '在介绍产品之前，想先了解一下您的风险承受能力，您做过风险测评吗？' },
  { side: 'customer', text: '做过，我是C2，谨慎型的。' },
  { side: 'rep', text: '好的，给您介绍稳盈理财，风险等级R2。过往业绩不代表未来表现，投资有风险。' },
  { side: 'customer', text: '保本吗？' },
  { side: 'rep', text: '这个产品不保本，也不能保证收益。预期收益率３．５％，也就是百分之三点五，不是承诺。' },
  { side: 'rep', text: '认购费是百分之零点五，管理费每年０．８％。' },
  { side: 'rep', text: '产品有十五天冷静期，冷静期内可以无条件撤销。' },
  { side: 'customer', text: '好的，我考虑一下。' },
];

/** Breaks every default rule: no name, no question, promises, no disclosure. */
export const VIOLATING: Turn[] = [
  { side: 'rep', text: '喂，您好，稳盈理财了解一下？' },
  { side: 'customer', text: '是什么产品？我是C2的客户。' },
  { side: 'rep', text: '这个产品保本保收益，稳赚不赔，零风险，收益最高。' },
  { side: 'customer', text: '那我想想。' },
];

export const segmentsOf = (turns: Turn[]) => turns.map((t, i) => ({ start: i * 10, end: i * 10 + 8, text: t.text, speaker: t.side }));

/** A cloud audio route on the fake model server: it answers the scripted segments whatever the audio. */
export async function addCloudRoute(ts: TestServer, fake: FakeModel): Promise<void> {
  const route = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { kind: 'audio', name: 'Cloud STT', provider: 'openai-compatible', base_url: fake.baseUrl, model: 'whisper-1', is_local: false } });
  assert.equal(route.status, 201, route.text);
}

/** Transcribes a short tone as `turns` (the fake route's scripted answer); returns the transcription id. */
export async function transcribeScript(ts: TestServer, fake: FakeModel, token: string, turns: Turn[], name = 'call.wav'): Promise<number> {
  fake.behave({ transcription: { text: turns.map((t) => t.text).join(''), language: 'zh', segments: segmentsOf(turns) } });
  const res = await ts.api.post('/api/audio/transcribe', { token, form: form({ speakers: 'true' }, { name, data: toneWav(0.5) }) });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id as number;
}

export async function createProduct(ts: TestServer, fields: Record<string, unknown>): Promise<number> {
  const res = await ts.api.post('/api/products', { token: ts.adminToken, body: fields });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id as number;
}
