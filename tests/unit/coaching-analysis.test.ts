// The pure parts of a coaching report: reading quantities as said in calls, checking structured product facts
// against fields and chunks, the draft questions built from misstated facts, the three practice items, and reading
// the model's JSON reply.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Product } from '../../contract/catalog.js';
import type { FactCheck } from '../../contract/coaching.js';
import { chineseNumber, quantities, riskLevels } from '../../server/coaching/quantities.js';
import { checkStructuredFacts, type ChunkSnapshot, type LabelledSegment } from '../../server/coaching/fact-checks.js';
import { draftQuestions } from '../../server/coaching/drafts.js';
import { pickPractice } from '../../server/coaching/practice.js';
import { parseJsonObject } from '../../server/coaching/model-analysis.js';
import { NameIndex } from '../../server/coaching/names.js';
import { questionIssues } from '../../server/exams/questions.service.js';
import { callFigures } from '../../server/audio/call-metrics.js';

const product = (fields: Partial<Product> = {}): Product => ({
  id: 1,
  code: 'HX-WY-001',
  name: '恒信稳盈一号',
  category: 'fund',
  status: 'active',
  summary: '',
  description: '',
  risk_level: 'R2',
  cooling_off_days: 0,
  commission_rate: 0.3,
  attributes: { 起购金额: '1万元', 锁定期: '90天', 币种: 'CNY' },
  created_at: '',
  updated_at: '',
  ...fields,
});

const chunk = (id: number, content: string): ChunkSnapshot => ({ id, source: { type: 'knowledge', id: 9, title: '2025年度理财产品手册' }, content });
const rep = (index: number, text: string): LabelledSegment => ({ index, start: index * 5, end: index * 5 + 4, speaker: 'rep', text });
const names = (p: Product) => ({ product: p, index: new NameIndex([{ id: p.id, names: [p.name, p.code] }, { id: 2, names: ['恒信进取二号', 'HX-JQ-002'] }]) });

describe('quantities as said in calls', () => {
  test('Chinese numerals, percents, ten-thousands and units', () => {
    assert.deepEqual([chineseNumber('三点五'), chineseNumber('二十'), chineseNumber('十五'), chineseNumber('一百零五')], [3.5, 20, 15, 105]);
    assert.ok(Number.isNaN(chineseNumber('三点')));
    assert.deepEqual(
      quantities('佣金是百分之零点三，起购5万元，锁定期 90 天, 10,000 yuan and 2.5 percent').map((q) => [q.value, q.unit]),
      [
        [0.3, '%'],
        [50_000, 'yuan'],
        [90, 'day'],
        [10_000, 'yuan'],
        [2.5, '%'],
      ],
    );
    assert.deepEqual(
      riskLevels('风险等级 R3，属于中低风险，PR5').map((q) => q.value),
      [3, 2, 5],
    );
  });
});

describe('structured fact checks', () => {
  const chunks = [
    // The handbook's title names the product: every chunk's trail does, so the section heading decides.
    chunk(1, '恒信稳盈一号产品手册 > Product: 恒信稳盈一号\n\n- code: HX-WY-001\n- risk_level: R2\n- commission_rate: 0.3%'),
    chunk(2, '恒信稳盈一号产品手册 > Product: 恒信进取二号\n\n- code: HX-JQ-002\n- risk_level: R4\n- commission_rate: 1.2%'),
    chunk(3, '恒信稳盈一号产品手册 > 佣金说明\n\n恒信稳盈一号的销售佣金为0.3%。恒信进取二号的佣金为1.2%。'),
  ];

  test('a misstated commission rate said in Chinese cites the product field and only the chunks about this product', () => {
    const facts = checkStructuredFacts(names(product()), chunks, [rep(0, '您好。这款产品的佣金是百分之一点二，很划算。')]);
    assert.equal(facts.length, 1);
    const [fact] = facts;
    assert.deepEqual([fact!.field, fact!.verdict, fact!.stated, fact!.correct], ['commission_rate', 'misstated', '百分之一点二', '0.3%']);
    assert.equal(fact!.claim, '这款产品的佣金是百分之一点二，很划算。');
    assert.deepEqual(
      fact!.citations.map((c) => (c.type === 'chunk' ? c.chunk_id : c.field)),
      ['commission_rate', 1, 3],
    );
  });

  test('a correct statement is consistent; a sentence about another product is not checked against this one', () => {
    const facts = checkStructuredFacts(names(product()), chunks, [rep(0, '佣金是0.3%。'), rep(1, '恒信进取二号的佣金是1.2%。')]);
    assert.deepEqual(
      facts.map((f) => [f.verdict, f.segments.map((s) => s.index)]),
      [['consistent', [0]]],
    );
  });

  test('the same wrong value said twice is one fact with both segments; risk levels and attributes with units are checked', () => {
    const facts = checkStructuredFacts(names(product()), chunks, [
      rep(0, '风险等级是R1，非常安全。起购金额是5000元。'),
      rep(1, '再说一遍，风险等级R1。锁定期是90天。'),
      rep(2, '锁定期大概三个月。'),
    ]);
    assert.deepEqual(
      facts.map((f) => [f.field, f.verdict, f.stated, f.correct, f.segments.map((s) => s.index), f.occurrences]),
      [
        ['risk_level', 'misstated', 'R1', 'R2', [0, 1], 2],
        ['attributes.起购金额', 'misstated', '5000元', '1万元', [0], 1],
        ['attributes.锁定期', 'consistent', '90天', '90天', [1], 1],
      ],
    );
  });

  test('without a product field, the chunks say what is correct', () => {
    const facts = checkStructuredFacts(names(product({ commission_rate: null })), chunks, [rep(0, 'The commission is 1.2%.')]);
    assert.deepEqual([facts[0]!.correct, facts[0]!.citations.map((c) => c.type === 'chunk' && c.chunk_id)], ['0.3%', [1, 3]]);
    assert.deepEqual(checkStructuredFacts(names(product({ commission_rate: null })), [], [rep(0, 'The commission is 1.2%.')]), []);
  });
});

describe('draft questions from misstated facts', () => {
  const fact = (id: string, fields: Partial<FactCheck>): FactCheck => ({
    id,
    method: 'deterministic',
    field: 'commission_rate',
    label: '佣金比例',
    claim: '',
    stated: '1.2%',
    correct: '0.3%',
    verdict: 'misstated',
    explanation: '',
    segments: [{ index: 0, start: 0, end: 4, speaker: 'rep', quote: 'q', audio_url: null }],
    occurrences: 1,
    citations: [{ type: 'chunk', chunk_id: 3, source: { type: 'knowledge', id: 9, title: '手册' }, text: '恒信稳盈一号的销售佣金为0.3%。' }],
    ...fields,
  });

  test('single, true/false and multiple questions the bank accepts, explained by the chunk and never by the call', () => {
    const drafts = draftQuestions('恒信稳盈一号', [
      fact('fact-1', {}),
      fact('fact-2', { field: 'risk_level', label: '风险等级', stated: 'R1', correct: 'R2' }),
      fact('fact-3', { method: 'model', field: null, label: '产品说法', claim: '收益保本保息。', stated: '保本', correct: '不保本' }),
      fact('fact-4', { verdict: 'consistent' }),
    ]);
    assert.deepEqual(
      drafts.map((d) => [d.type, d.finding_ids]),
      [
        ['single', ['fact-1']],
        ['true_false', ['fact-1']],
        ['single', ['fact-2']],
        ['true_false', ['fact-2']],
        ['true_false', ['fact-3']],
        ['multiple', ['fact-1', 'fact-2']],
      ],
    );
    for (const d of drafts) {
      assert.deepEqual(questionIssues(d), [], d.stem);
      assert.match(d.explanation, /知识片段 #3/);
      assert.doesNotMatch(d.explanation, /通话|销售说/);
    }
    assert.deepEqual(drafts[0]!.options.map((o) => o.text), ['0.3%', '0.75%', '1.2%', '2.1%']);
    assert.deepEqual(drafts[0]!.answer, ['A']);
    assert.deepEqual(drafts[2]!.options.map((o) => o.text), ['R1', 'R2', 'R3', 'R4']);
    assert.deepEqual(drafts[2]!.answer, ['B']);
    assert.equal(drafts[4]!.stem, '判断：收益保本保息。');
    const multiple = drafts[5]!;
    assert.deepEqual(
      multiple.answer.map((key) => multiple.options.find((o) => o.key === key)!.text),
      ['佣金比例为 0.3%', '风险等级为 R2'],
    );
  });
});

describe('three things to practise', () => {
  test('without a model, the call figures give three concrete items', () => {
    const segments = [
      { start: 0, end: 40, text: 'Let me tell you all about this product, it is great.', speaker: 'rep' },
      { start: 38, end: 42, text: 'Wait, I', speaker: 'customer' },
      { start: 41, end: 80, text: 'And another thing, the returns are fine.', speaker: 'rep' },
    ];
    const figures = callFigures(segments);
    const repSegments = segments.flatMap((s, index) => (s.speaker === 'rep' ? [{ index, ...s }] : []));
    const practice = pickPractice({ productName: null, facts: [], objections: [], figures, rep: figures.speakers[0]!, repSegments, modelPractice: [] });
    assert.deepEqual(
      practice.map((p) => [p.id, p.kind]),
      [
        ['practice-1', 'questions'],
        ['practice-2', 'talk_ratio'],
        ['practice-3', 'interruptions'],
      ],
    );
    assert.ok(practice.every((p) => p.segments.length > 0));
    // The rep started at 41 s while the customer was still talking: that is the segment to listen to.
    assert.deepEqual(practice[2]!.segments.map((s) => s.index), [2]);
    assert.match(practice[1]!.title, /你说话占了 95%/);
  });

  test('a figure within its target is a habit to keep, never advice against what the rep did not do', () => {
    const segments = [
      { start: 0, end: 10, text: 'What are you saving for? How long can the money stay?', speaker: 'rep' },
      { start: 11, end: 24, text: 'For my daughter, about five years, and I do not want to lose any of it.', speaker: 'customer' },
      { start: 25, end: 40, text: 'Then the income fund fits. Would a monthly report help you?', speaker: 'rep' },
      { start: 41, end: 55, text: 'Yes, monthly is good. What are the fees?', speaker: 'customer' },
    ];
    const figures = callFigures(segments);
    const rep = figures.speakers.find((f) => f.speaker === 'rep')!;
    assert.ok(rep.talk_ratio <= 0.65 && rep.questions >= 3 && rep.interruptions === 0 && rep.longest_monologue_seconds <= 30, JSON.stringify(rep));
    const repSegments = segments.flatMap((s, index) => (s.speaker === 'rep' ? [{ index, ...s }] : []));
    const practice = pickPractice({ productName: null, facts: [], objections: [], figures, rep, repSegments, modelPractice: [] });
    assert.equal(practice.length, 3, 'still three items');
    for (const item of practice) {
      assert.match(item.title, /^(保持|继续)/, item.title);
      assert.doesNotMatch(item.title + item.detail, /多听少说|缩短独白|不要打断|拆成 20–30 秒/);
    }
  });
});

describe('the model reply', () => {
  test('JSON in a fence or in prose is read; anything else is not', () => {
    assert.deepEqual(parseJsonObject('Here:\n```json\n{"objections": []}\n```'), { objections: [] });
    assert.deepEqual(parseJsonObject('Sure! {"practice": [{"title": "x"}]} Hope it helps.'), { practice: [{ title: 'x' }] });
    assert.equal(parseJsonObject('no json here'), undefined);
    assert.equal(parseJsonObject('{broken'), undefined);
  });
});

describe('product names in a call', () => {
  test('whole words for Latin names, the longest of overlapping names, Chinese names anywhere', () => {
    const index = new NameIndex([
      { id: 1, names: ['Steady Income Fund', 'SIF-1'] },
      { id: 2, names: ['Steady Income Fund Plus', 'SIF-17'] },
      { id: 3, names: ['恒信稳盈一号', null] },
    ]);
    assert.deepEqual(
      index.find('About SIF-17 and the Steady Income Fund Plus, not the steady income fund; 买恒信稳盈一号吗').map((h) => h.id),
      [2, 2, 1, 3],
    );
    assert.deepEqual(index.find('SIF-1x, XSIF-1, SIF-1.'), [{ id: 1, at: 16, length: 5 }]);
    assert.deepEqual(index.mentions('Steady Income Fund Plus pays more', 1), { own: false, other: true });
  });
});
