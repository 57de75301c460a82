// The three things to practise, picked from the findings: misstated facts first, then objections the rep did not
// (fully) answer, then the call's own figures (talk share, questions, interruptions, monologues), then the model's
// suggestions. Figures always give candidates, so a call where the rep spoke yields three even without a model.
// Pure functions.
import type { CallFigures, SpeakerFigures } from '../../contract/audio.js';
import type { FactCheck, Objection, PracticeFocus, SegmentRef } from '../../contract/coaching.js';
import { countQuestions } from '../audio/call-metrics.js';
import { segmentRef, type LabelledSegment } from './fact-checks.js';
import type { ModelPractice } from './model-analysis.js';

export const PRACTICE_COUNT = 3;

type Candidate = Omit<PracticeFocus, 'id'> & { priority: number };

const percent = (ratio: number) => Math.round(ratio * 100);

/** Where a figure starts to need work (docs/api/coaching.md): within it, the item is a habit to keep. */
const TALK_SHARE_LIMIT = 0.65;
const ENOUGH_QUESTIONS = 3;
const MONOLOGUE_SECONDS = 30;
const LONG_MONOLOGUE_SECONDS = 60;

function figureCandidates(rep: SpeakerFigures, figures: CallFigures, repSegments: LabelledSegment[]): Candidate[] {
  const base = { finding_ids: [], citations: [], scenario: false };
  const refs = (segments: LabelledSegment[]): SegmentRef[] => segments.slice(0, 3).map(segmentRef);
  const longest = [...repSegments].sort((a, b) => b.end - b.start - (a.end - a.start));
  const monologue = figures.longest_monologue?.speaker === rep.speaker ? figures.longest_monologue : null;
  const inMonologue = monologue ? repSegments.filter((s) => s.start >= monologue.start && s.end <= monologue.end) : [];
  const interrupting = figures.interruptions.filter((x) => x.speaker === rep.speaker).map((x) => repSegments.find((s) => Math.abs(s.start - x.at) < 0.01)).filter((s): s is LabelledSegment => !!s);
  const asking = repSegments.filter((s) => countQuestions(s.text) > 0);
  const talkShare = percent(rep.talk_ratio);
  const seconds = Math.round(rep.longest_monologue_seconds);
  return [
    {
      ...base,
      kind: 'talk_ratio',
      ...(rep.talk_ratio > TALK_SHARE_LIMIT
        ? { priority: 60, title: `多听少说：这通电话里你说话占了 ${talkShare}%`, detail: `超过 ${percent(TALK_SHARE_LIMIT)}% 就是说得太多了；理想的是客户说得和你一样多甚至更多。每讲完一个要点，用一个开放式问题把话轮交给客户，再认真听完。` }
        : { priority: 20 + rep.talk_ratio * 20, title: `保持倾听：这通电话里你说话占了 ${talkShare}%`, detail: `你的说话占比没有超过 ${percent(TALK_SHARE_LIMIT)}%，继续保持；理想的是客户说得和你一样多甚至更多：讲完一个要点就把话轮交给客户。` }),
      segments: refs(longest),
    },
    {
      ...base,
      kind: 'questions',
      ...(rep.questions < ENOUGH_QUESTIONS
        ? { priority: 70 - rep.questions * 10, title: `多提探询问题：整通电话你问了 ${rep.questions} 个问题`, detail: '在介绍产品之前，先问清客户的目标、期限和风险承受能力（例如“这笔钱您打算放多久？”），再据此介绍。' }
        : { priority: 10, title: `继续多问：整通电话你问了 ${rep.questions} 个问题`, detail: '保持先问后讲：问清客户的目标、期限和风险承受能力，再介绍产品。' }),
      segments: refs(asking.length ? asking : repSegments.slice(0, 1)),
    },
    {
      ...base,
      kind: 'interruptions',
      ...(rep.interruptions
        ? { priority: 50 + 5 * rep.interruptions, title: `不要打断客户：你打断了客户 ${rep.interruptions} 次`, detail: '等客户说完再回应；如果需要澄清，先复述客户的话（“您是担心……对吗？”）。' }
        : { priority: 0, title: '保持耐心：这通电话你没有打断客户', detail: '继续等客户说完再回应；需要澄清时先复述客户的话。' }),
      segments: refs(interrupting.length ? interrupting : longest),
    },
    {
      ...base,
      kind: 'monologue',
      ...(rep.longest_monologue_seconds > MONOLOGUE_SECONDS
        ? {
            priority: rep.longest_monologue_seconds > LONG_MONOLOGUE_SECONDS ? 55 : 35,
            title: `缩短独白：你最长一段连续说了 ${seconds} 秒`,
            detail: '把长段介绍拆成 20–30 秒的小段，每段之后确认客户是否理解、是否关心。',
          }
        : { priority: 5, title: `保持简短：你最长一段连续说了 ${seconds} 秒`, detail: `每段介绍保持在 ${MONOLOGUE_SECONDS} 秒以内，之后确认客户是否理解、是否关心。` }),
      segments: refs(inMonologue.length ? inMonologue : longest),
    },
  ];
}

export interface PracticeInput {
  productName: string | null;
  facts: FactCheck[];
  objections: Objection[];
  figures: CallFigures;
  rep: SpeakerFigures | null;
  repSegments: LabelledSegment[];
  modelPractice: ModelPractice[];
}

export function pickPractice(input: PracticeInput): PracticeFocus[] {
  const product = input.productName ? `「${input.productName}」的` : '';
  const candidates: Candidate[] = [
    ...input.facts
      .filter((f) => f.verdict === 'misstated')
      .map(
        (f): Candidate => ({
          kind: 'fact',
          priority: 100,
          title: `记准${product}${f.label}：${f.correct}`,
          detail: `通话中说成了「${f.stated}」。看一遍引用的已审核资料，在复习清单中完成复习后标记为已掌握。`,
          finding_ids: [f.id],
          segments: f.segments,
          citations: f.citations,
          scenario: false,
        }),
      ),
    ...input.objections
      .filter((o) => o.handling !== 'answered')
      .map(
        (o): Candidate => ({
          kind: 'objection',
          priority: o.handling === 'not_answered' ? 90 : 80,
          title: `应对客户异议：${o.summary}`,
          detail: o.better_answer || o.assessment || '在 AI 教练的角色扮演里用这位客户的原话练习应对。',
          finding_ids: [o.id],
          segments: [...o.customer, ...o.rep_response],
          citations: o.citations,
          scenario: true,
        }),
      ),
    ...(input.rep ? figureCandidates(input.rep, input.figures, input.repSegments) : []),
    ...input.modelPractice.map(
      (p): Candidate => ({ kind: 'model', priority: 40, title: p.title, detail: p.detail, finding_ids: [], segments: p.segments.map(segmentRef), citations: [], scenario: false }),
    ),
  ];
  return candidates
    .map((c, order) => ({ c, order }))
    .sort((a, b) => b.c.priority - a.c.priority || a.order - b.order)
    .slice(0, PRACTICE_COUNT)
    .map(({ c: { priority: _priority, ...item } }, i) => ({ id: `practice-${i + 1}`, ...item }));
}
