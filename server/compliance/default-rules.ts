// The shipped default rule set (Chinese sales-conduct rules; each rule's regulatory theme is in
// docs/api/compliance.md). Seeded by migration 022 as the rule set of scope `all`; admins edit it like any other.
import type { ComplianceRule } from '../../contract/compliance.js';

const FIRM = '(银行|证券|基金|公司|财富|理财|保险|信托)';

export const DEFAULT_RULE_SET_NAME = '默认销售行为规范';
/** The shipped default's gid, the same on every server (central and branches), so it syncs as one rule set. */
export const DEFAULT_RULE_SET_GID = '00000000-0000-4000-8000-00000000c001';

export const DEFAULT_RULES: ComplianceRule[] = [
  {
    key: 'identity',
    name: { 'zh-CN': '表明身份与机构', en: 'Says who they are and for which firm' },
    explanation: {
      'zh-CN': '通话开始两分钟内，销售人员应说明本人姓名（或工号）和所在机构。',
      en: 'Within the first two minutes the rep gives their name (or staff number) and the firm they work for.',
    },
    kind: 'required',
    phrases: [`我是*${FIRM}`, `我叫*${FIRM}`, `${FIRM}的*(客户经理|理财经理|投资顾问|理财顾问|销售|工号)`, `(我的)?工号是`],
    window: { within_seconds: 120 },
    severity: 'major',
    condition: null,
  },
  {
    key: 'risk_tolerance_asked',
    name: { 'zh-CN': '了解客户风险承受能力', en: 'Asks the customer’s risk tolerance' },
    explanation: {
      'zh-CN': '在介绍具体产品之前，销售人员应询问客户的风险承受能力或风险测评结果，并记录客户的回答。',
      en: 'Before naming a product, the rep asks the customer’s risk tolerance or risk assessment result; the answer is quoted.',
    },
    kind: 'asked',
    phrases: ['风险(承受|偏好|测评|评估|等级|类型)', '(能|可以)承受*(风险|亏损|损失|波动)', '(风险|投资)*类型是'],
    window: { before_product_named: true },
    severity: 'critical',
    condition: null,
  },
  {
    key: 'risk_match',
    name: { 'zh-CN': '产品风险与客户相匹配', en: 'Product risk matches the customer' },
    explanation: {
      'zh-CN': '推荐产品的风险等级（R1–R5）不得高于客户的风险承受类型（C1–C5）可购买的最高等级。',
      en: 'The product’s risk level (R1–R5) must not exceed the highest level the customer’s risk type (C1–C5) allows.',
    },
    kind: 'risk_match',
    phrases: [],
    window: null,
    severity: 'critical',
    condition: null,
  },
  {
    key: 'risk_disclosure',
    name: { 'zh-CN': '风险揭示', en: 'Discloses the risk' },
    explanation: {
      'zh-CN': '销售人员应如实揭示投资风险，例如“过往业绩不代表未来表现”“投资有风险”“可能亏损本金”。',
      en: 'The rep discloses the risk, e.g. past performance does not predict future returns, investing carries risk, the principal can be lost.',
    },
    kind: 'required',
    phrases: ['(过往|历史|以往)业绩不(代表|预示|等于)', '(投资|产品|理财|基金)有风险', '(可能|会|存在)*(亏损|损失|亏本|回撤|下跌)', '不保证*(收益|本金)', '市场有风险'],
    window: null,
    severity: 'major',
    condition: null,
  },
  {
    key: 'fee_disclosure',
    name: { 'zh-CN': '费用说明', en: 'Discloses the fees' },
    explanation: {
      'zh-CN': '销售人员应向客户说明产品的相关费用（认购/申购费、赎回费、管理费等）。',
      en: 'The rep tells the customer the product’s fees (subscription, redemption, management fees…).',
    },
    kind: 'required',
    phrases: ['(认购|申购|赎回|管理|托管|销售服务|服务)费', '手续费', '费率'],
    window: null,
    severity: 'major',
    condition: null,
  },
  {
    key: 'no_guarantee',
    name: { 'zh-CN': '不得承诺保本保收益', en: 'No promise of principal or returns' },
    explanation: {
      'zh-CN': '销售人员不得承诺保本、保收益，不得使用“稳赚不赔”“零风险”“收益最高”等误导性表述。',
      en: 'The rep never promises the principal or a return, nor says “sure to win”, “zero risk”, “the highest return”.',
    },
    kind: 'forbidden',
    phrases: ['保本', '保(证)?收益', '稳赚不赔', '(零|无)风险', '没有(任何)?风险', '收益最高', '(肯定|一定|保证)(能)?(赚|盈利|挣)', '刚性兑付', '(保证|承诺)*(年化|回报)'],
    window: null,
    severity: 'critical',
    condition: null,
  },
  {
    key: 'cooling_off',
    name: { 'zh-CN': '告知冷静期', en: 'Tells the cooling-off period' },
    explanation: {
      'zh-CN': '产品设有冷静期（犹豫期）时，销售人员应告知客户冷静期及其间可解除合同、退还款项的权利。',
      en: 'For a product with a cooling-off period the rep tells the customer about it and the right to cancel within it.',
    },
    kind: 'required',
    phrases: ['冷静期', '犹豫期', '(无条件|全额)*(退|撤销|解除)'],
    window: null,
    severity: 'major',
    condition: 'cooling_off',
  },
];
