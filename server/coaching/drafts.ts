// Draft exam questions built from misstated facts: a single-choice question for a numeric or structured fact (the
// correct value, the value the rep said and near values as options), a true/false question on the rep's wrong
// statement, and a multiple-choice question when several facts of the product were misstated. The explanation cites
// the approved knowledge the answer rests on, never the rep or the call (the question is for everyone); the draft
// keeps the call's segments as its provenance. Pure functions.
import type { QuestionOption } from '../../contract/exams.js';
import type { Citation, FactCheck, QuestionDraft } from '../../contract/coaching.js';
import { quantities, riskLevels, sameValue, type Quantity } from './quantities.js';

export type DraftContent = Pick<QuestionDraft, 'finding_ids' | 'type' | 'stem' | 'options' | 'answer' | 'explanation' | 'segments' | 'citations'>;

export const MAX_DRAFTS_PER_REPORT = 12;
const KEYS = 'ABCDEFGH';
export const TRUE_FALSE: QuestionOption[] = [
  { key: 'true', text: '正确' },
  { key: 'false', text: '错误' },
];

const UNIT_TEXT: Record<string, string> = { '%': '%', day: '天', month: '个月', year: '年', yuan: '元', '': '' };

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

/** The sources of the correct answer, as an explanation's second sentence. */
export function basisText(citations: Citation[]): string {
  const parts = citations.map((c) =>
    c.type === 'chunk' ? `《${c.source.title}》（知识片段 #${c.chunk_id}）：“${clip(c.text, 160)}”` : `产品「${c.product_name}」资料字段「${c.label}」= ${c.value}`,
  );
  return parts.length ? `依据：${parts.join('；')}。` : '';
}

interface Valued {
  correct: Quantity;
  stated: Quantity;
  show: (value: number) => string;
  /** The values an option may take (risk levels R1–R5). */
  allowed?: (value: number) => boolean;
}

/** The numbers of a deterministic fact, when both sides parse. */
function valued(fact: FactCheck): Valued | undefined {
  if (fact.method !== 'deterministic') return undefined;
  if (fact.field === 'risk_level') {
    const [correct] = riskLevels(fact.correct);
    const [stated] = riskLevels(fact.stated);
    return correct && stated ? { correct, stated, show: (v) => `R${v}`, allowed: (v) => Number.isInteger(v) && v >= 1 && v <= 5 } : undefined;
  }
  const [correct] = quantities(fact.correct);
  const [stated] = quantities(fact.stated);
  if (!correct || !stated) return undefined;
  const unit = UNIT_TEXT[correct.unit] ?? '';
  return { correct, stated, show: (v) => `${Number(v.toFixed(2))}${unit}` };
}

function choiceOptions({ correct, stated, show, allowed }: Valued): { options: QuestionOption[]; answer: string[] } {
  const c = correct.value;
  const s = stated.value;
  const step = Math.abs(s - c) || Math.max(Math.abs(c) * 0.5, 1);
  const picked: number[] = [];
  for (const v of [c, s, s + step, c - step, c + step / 2, c * 2, c / 2, s + 2 * step]) {
    const value = Number(v.toFixed(4));
    if (value > 0 && (!allowed || allowed(value)) && !picked.some((p) => sameValue(p, value))) picked.push(value);
    if (picked.length === 4) break;
  }
  picked.sort((a, b) => a - b);
  const options = picked.map((v, i) => ({ key: KEYS[i]!, text: show(v) }));
  return { options, answer: [options[picked.findIndex((v) => sameValue(v, c))]!.key] };
}

const provenance = (fact: FactCheck) => ({ finding_ids: [fact.id], segments: fact.segments, citations: fact.citations });

function questionsOfFact(product: string, fact: FactCheck): DraftContent[] {
  const drafts: DraftContent[] = [];
  const numbers = valued(fact);
  if (numbers) {
    drafts.push({
      ...provenance(fact),
      type: 'single',
      stem: `「${product}」的${fact.label}是多少？`,
      ...choiceOptions(numbers),
      explanation: `正确答案：${fact.correct}。${basisText(fact.citations)}`,
    });
  }
  const statement = fact.method === 'deterministic' ? `「${product}」的${fact.label}是 ${fact.stated}。` : fact.claim;
  drafts.push({
    ...provenance(fact),
    type: 'true_false',
    stem: `判断：${statement}`,
    options: TRUE_FALSE,
    answer: ['false'],
    explanation: `错误。${fact.method === 'deterministic' ? `${fact.label}为 ${fact.correct}` : fact.correct}。${basisText(fact.citations)}`,
  });
  return drafts;
}

/** Several misstated facts of one product: which statements are correct (each fact's correct and wrong version). */
function combinedQuestion(product: string, facts: FactCheck[]): DraftContent {
  const statements = facts.slice(0, KEYS.length / 2).flatMap((f, i) => {
    const right = { text: `${f.label}为 ${f.correct}`, correct: true };
    const wrong = { text: `${f.label}为 ${f.stated}`, correct: false };
    return i % 2 ? [wrong, right] : [right, wrong];
  });
  const options = statements.map((s, i) => ({ key: KEYS[i]!, text: s.text }));
  const used = facts.slice(0, KEYS.length / 2);
  return {
    finding_ids: used.map((f) => f.id),
    type: 'multiple',
    stem: `关于「${product}」，以下哪些说法正确？`,
    options,
    answer: statements.flatMap((s, i) => (s.correct ? [KEYS[i]!] : [])),
    explanation: used.map((f) => `${f.label}为 ${f.correct}。${basisText(f.citations)}`).join(''),
    segments: used.flatMap((f) => f.segments),
    citations: used.flatMap((f) => f.citations),
  };
}

/** The drafts of a report's misstated facts, at most MAX_DRAFTS_PER_REPORT. */
export function draftQuestions(productName: string | null, facts: FactCheck[]): DraftContent[] {
  const misstated = facts.filter((f) => f.verdict === 'misstated');
  const product = productName ?? '该产品';
  // One statement per fact field: two wrong commission rates make one fact of the combined question, not two.
  const structured = misstated.filter((f, i) => f.method === 'deterministic' && misstated.findIndex((g) => g.field === f.field) === i);
  return [...misstated.flatMap((f) => questionsOfFact(product, f)), ...(structured.length >= 2 ? [combinedQuestion(product, structured)] : [])].slice(0, MAX_DRAFTS_PER_REPORT);
}
