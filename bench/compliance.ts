// Issue 27 benchmark: a one-hour call transcript (1,500 speaker-labelled segments) inspected against the default
// rule set plus 50 custom rules, in process. Reported against a baseline of the same run: a plain scan of the same
// text with the same phrases compiled into ONE regular expression (what any keyword tracker must at least do).
// Target: the inspection within 3× the plain scan, and under 100 ms.
import { performance } from 'node:perf_hooks';
import type { ComplianceRule } from '../contract/compliance.js';
import { DEFAULT_RULES } from '../server/compliance/default-rules.js';
import { compileRuleSet, inspectCall, prepareCall, type CallSegment } from '../server/compliance/engine.js';
import { phraseSource } from '../server/compliance/phrases.js';
import { percentile, type BenchContext } from './harness.js';

const SEGMENTS = 1_500;
const CUSTOM_RULES = 50;
const RUNS = Number(process.env.BENCH_COMPLIANCE_RUNS ?? 30);

const REP_LINES = [
  '您好，我是恒信银行的理财经理王芳，工号１２３４，今天想跟您聊聊稳盈理财。',
  '在介绍之前想先了解一下，您的风险承受能力怎么样？做过风险测评吗？',
  '这个产品风险等级是R2，过往业绩不代表未来表现，投资有风险，可能出现亏损。',
  '认购费是百分之零点五，管理费每年０．８％，赎回费按持有时间计算。',
  '产品有十五天冷静期，冷静期内可以无条件撤销，款项全额退还。',
  '这个产品不保本，也不能保证收益，预期年化收益率三点五％左右，仅供参考。',
  '您看这笔钱大概打算放多久？两年左右的话比较合适。',
];
const CUSTOMER_LINES = ['我是C2，谨慎型的。', '保本吗？收益能到多少？', '手续费有点高啊。', '我再考虑一下，和家里人商量商量。', '要是市场跌了怎么办？'];

const transcript = (): CallSegment[] =>
  Array.from({ length: SEGMENTS }, (_, i) => {
    const rep = i % 2 === 0;
    const lines = rep ? REP_LINES : CUSTOMER_LINES;
    return { index: i, start: i * 2.4, end: i * 2.4 + 2.2, speaker: rep ? 'rep' : 'customer', text: lines[(i * 7) % lines.length]! };
  });

/** 50 admin rules in the shapes admins write: promises with numbers, gaps, alternatives, optional words. */
const customRules = (): ComplianceRule[] =>
  Array.from({ length: CUSTOM_RULES }, (_, i): ComplianceRule => ({
    key: `custom_${i}`,
    name: { 'zh-CN': `自定义规则 ${i}`, en: `Custom rule ${i}` },
    explanation: { 'zh-CN': '自定义', en: 'custom' },
    kind: i % 3 === 0 ? 'required' : 'forbidden',
    phrases: [`(承诺|保证)*年化${i + 5}%`, `第${i + 1}期(产品)?*(稳赚|必涨)`, `内部(渠道|名额)${i}号`, `(特别|专属)优惠*${i}天`],
    severity: i % 5 === 0 ? 'critical' : 'minor',
    window: i % 4 === 0 ? { within_seconds: 600 } : null,
    condition: null,
  }));

function timeRuns(run: () => unknown): number[] {
  for (let i = 0; i < 3; i++) run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return times;
}

export default async function compliance(_ctx: BenchContext): Promise<void> {
  const segments = transcript();
  const rules = [...DEFAULT_RULES, ...customRules()];
  const product = { name: '稳盈理财', code: 'WY-1', risk_level: 'R2', cooling_off_days: 15 };

  const compileStarted = performance.now();
  const compiled = compileRuleSet(rules);
  const compileMs = performance.now() - compileStarted;

  // Baseline: the raw text of the call, scanned once by one expression of every phrase.
  const text = segments.map((s) => s.text).join('\n');
  const plain = new RegExp(rules.flatMap((r) => r.phrases.map(phraseSource)).map((s) => `(?:${s})`).join('|'), 'g');
  let plainMatches = 0;
  const plainTimes = timeRuns(() => {
    plainMatches = 0;
    for (const _ of text.matchAll(plain)) plainMatches++;
  });
  let failed = 0;
  const inspectTimes = timeRuns(() => {
    failed = inspectCall(compiled, segments, 'rep', product).verdicts.filter((v) => v.outcome === 'fail').length;
  });

  const prepareTimes = timeRuns(() => prepareCall(segments, 'rep'));
  const median = (values: number[]) => percentile(values, 0.5);
  const ratio = median(inspectTimes) / median(plainTimes);
  console.log(`call: ${SEGMENTS} segments (${text.length} characters), ${rules.length} rules (${rules.reduce((n, r) => n + r.phrases.length, 0)} phrases); ${RUNS} runs each`);
  console.log(`compile the rule set once (cached per version)    ${compileMs.toFixed(2)} ms`);
  console.log(`plain scan, one regular expression (baseline)     median ${median(plainTimes).toFixed(2)} ms  p99 ${percentile(plainTimes, 0.99).toFixed(2)} ms  (${plainMatches} matches)`);
  console.log(
    `inspection (normalise, every rule, verdicts)       median ${median(inspectTimes).toFixed(2)} ms  p99 ${percentile(inspectTimes, 0.99).toFixed(2)} ms  ` +
      `= ${ratio.toFixed(2)}x the plain scan  (${failed} rules failed)  [target ≤ 3x and < 100 ms]`,
  );
  console.log(`  of which normalising the call (width, numerals, marks) median ${median(prepareTimes).toFixed(2)} ms`);
}
