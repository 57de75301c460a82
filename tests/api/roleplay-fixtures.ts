// A role-play scenario for the API, browser and bench tests: a cautious customer weighing 稳盈理财, with criteria
// met by a compliance rule, by phrases, and (with a model) by judgement.
import assert from 'node:assert/strict';
import type { TestServer } from '../support/server.js';

export const SCENARIO = {
  title: '稳盈理财：谨慎客户的保本顾虑',
  persona: { name: '李阿姨', profile: '退休教师，六十岁，存款为主，第一次接触理财产品', risk_tolerance: 'C2' },
  opening: '你好，我听说你们有个稳盈理财，收益怎么样？',
  objections: ['这个会不会亏本啊？', '手续费高不高？'],
  closing: '好的，我回去和家里人商量一下。',
  criteria: [
    { key: 'disclose_risk', label: '揭示风险', weight: 2, rule_key: 'risk_disclosure' },
    { key: 'ask_risk', label: '询问风险承受能力', weight: 1, phrases: ['风险(承受|测评)'] },
    { key: 'cooling_off', label: '告知冷静期', weight: 1, phrases: ['冷静期'] },
    { key: 'empathy', label: '回应客户顾虑', weight: 1, description: '理财经理先复述客户的担心，再回答' },
  ],
  pass_score: 60,
  max_turns: 6,
};

/** The rep's lines of a session: the second breaks no_guarantee, the third corrects it with a risk disclosure. */
export const REP_LINES = [
  '您好，我是恒信银行的理财经理王芳。想先了解一下您的风险承受能力，您做过风险测评吗？',
  '这个产品保本保收益，您放心。',
  '您是担心亏本对吗？抱歉我刚才说错了，产品不保本，投资有风险，过往业绩不代表未来表现。',
];

export async function createScenario(ts: TestServer, fields: Record<string, unknown> = {}): Promise<number> {
  const res = await ts.api.post('/api/roleplay/scenarios', { token: ts.adminToken, body: { ...SCENARIO, ...fields } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id as number;
}
