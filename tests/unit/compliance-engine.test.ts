// The compliance engine's pure parts: one normal form for text and phrases, phrase marks, negations, the customer's
// risk type and the product's level.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeAll, normalizeText } from '../../server/compliance/normalize.js';
import { compilePhrases, PhraseError } from '../../server/compliance/phrases.js';
import { compileRuleSet, inspectCall, riskLevelOf } from '../../server/compliance/engine.js';
import { DEFAULT_RULES } from '../../server/compliance/default-rules.js';

const rep = (text: string, index = 0) => ({ index, start: index * 5, end: index * 5 + 4, speaker: 'rep', text });
const outcome = (key: string, texts: string[]) =>
  inspectCall(compileRuleSet(DEFAULT_RULES), texts.map(rep), 'rep', null).verdicts.find((v) => v.rule.key === key)!.outcome;

describe('compliance engine', () => {
  test('width, case, numerals both ways and punctuation have one normal form', () => {
    assert.equal(normalizeText('收益率３．５％，不保本！'), '收益率3.5%，不保本。');
    assert.equal(normalizeText('百分之三点五'), normalizeText('百分之3.5'));
    assert.equal(normalizeText('十五天冷静期'), normalizeText('15天冷静期'));
    assert.equal(normalizeText('二零二六年'), '2026年');
    assert.equal(normalizeText('一百万'), '100万');
    assert.equal(normalizeText('ＡＢＣ 零风险'), 'abc0风险');
    assert.deepEqual(normalizeAll(['您好。', '三点五', 'C2\u0001']), ['您好。', '3.5', 'c2']);
  });

  test('phrase marks: gaps within a sentence, alternatives, optional words; bad phrases are refused', () => {
    // The phrases are an RE2 matcher, which assert.match does not take (it wants a RegExp of V8's own).
    const matches = (text: string, phrases: RegExp) => {
      phrases.lastIndex = 0;
      return phrases.test(normalizeText(text));
    };
    const gap = compilePhrases(['我是*银行'])!;
    assert.equal(matches('我是小王，恒信银行的', gap), true);
    assert.equal(matches('我是小王。恒信银行的', gap), false);
    assert.equal(matches('保证收益', compilePhrases(['保(证)?收益'])!), true);
    assert.equal(matches('保收益', compilePhrases(['保(证)?收益'])!), true);
    assert.throws(() => compilePhrases(['(保本']), PhraseError);
    assert.throws(() => compilePhrases(['()']), PhraseError);
    // Linear time: many gaps against a long run of one letter (seconds with a backtracking RegExp).
    const many = compilePhrases(['a*a*a*a*a*a*a*a*a*ab'])!;
    const started = process.hrtime.bigint();
    assert.equal(matches('a'.repeat(5000), many), false);
    assert.ok(process.hrtime.bigint() - started < 1_000_000_000n, 'the match ends within a second');
  });

  test('no_guarantee: negations and a question repeated back are not the promise', () => {
    for (const said of ['不保本', '这个产品并不保本', '不能保证收益', '并非零风险', '我们没有保本的承诺', '您是问保本吗？'])
      assert.equal(outcome('no_guarantee', [said]), 'pass', said);
    for (const said of ['保本的', '保证收益', '稳赚不赔', '零风险', '收益最高', '一定能赚'])
      assert.equal(outcome('no_guarantee', [said]), 'fail', said);
  });

  test('risk levels: R1–R5 and the ways they are written', () => {
    assert.deepEqual(['R3', 'r3', 'PR3', '中风险', 'Ｒ３'].map(riskLevelOf), ['R3', 'R3', 'R3', 'R3', 'R3']);
    assert.equal(riskLevelOf('R6'), null);
    assert.equal(riskLevelOf(''), null);
  });
});
