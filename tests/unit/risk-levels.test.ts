// Issue 33, item 2: risk levels read generously (the words product sources used before levels were checked), and
// risk_match judges a product by the level its words name; a value naming no level leaves risk_match not applicable.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRuleSet, inspectCall, riskLevelOf } from '../../server/compliance/engine.js';
import { DEFAULT_RULES } from '../../server/compliance/default-rules.js';

const segment = (speaker: string, text: string, index: number) => ({ index, start: index * 5, end: index * 5 + 4, speaker, text });

function riskMatch(riskLevel: string): string {
  const call = [segment('rep', '请问您的风险测评结果是什么类型？', 0), segment('customer', '我是稳健型，C3。', 1), segment('rep', '这款产品适合您。', 2)];
  const product = { name: '稳盈理财', code: 'WY-1', risk_level: riskLevel, cooling_off_days: 0 };
  return inspectCall(compileRuleSet(DEFAULT_RULES), call, 'rep', product).verdicts.find((v) => v.rule.key === 'risk_match')!.outcome;
}

describe('risk levels', () => {
  test('English words, any case and spacing, name the levels; R1–R5, PR3 and the Chinese words still do', () => {
    assert.deepEqual(['low', 'Medium-Low', 'medium', 'MEDIUM HIGH', 'medium_high', 'high', ' High '].map(riskLevelOf), ['R1', 'R2', 'R3', 'R4', 'R4', 'R5', 'R5']);
    assert.deepEqual(['R3', 'r 3', 'PR3', 'pr-3', '中风险', '中 高风险', 'Ｒ３'].map(riskLevelOf), ['R3', 'R3', 'R3', 'R3', 'R3', 'R4', 'R3']);
    assert.deepEqual(['R6', '', 'lowish', '稳健', 'very high'].map(riskLevelOf), [null, null, null, null, null]);
  });

  test('risk_match reads a product written in words: within the customer’s type passes, above it fails', () => {
    assert.equal(riskMatch('medium'), 'pass');
    assert.equal(riskMatch('low'), 'pass');
    assert.equal(riskMatch('medium-high'), 'fail');
    assert.equal(riskMatch('稳健'), 'not_applicable');
  });
});
