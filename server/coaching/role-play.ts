// The coach role-play seeded with a call's real objections: the scenario stored in a report (with the ready
// request bodies the UI sends to open it), and the instructions the coach model gets when a message or the
// scenario quick action names the report.
import type { CoachScenario, FactCheck, Objection, ProductRef } from '../../contract/coaching.js';

export const ROLE_PLAY_OPENING = '开始练习：请扮演这通电话里的客户，用客户的原话提出第一个异议。';

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** The scenario of a report, or null when the call gave no objection to practise. */
export function scenarioOf(reportId: number, product: ProductRef | null, objections: Objection[], facts: FactCheck[]): CoachScenario | null {
  if (!objections.length) return null;
  const ref = product && { id: product.id, code: product.code, name: product.name };
  return {
    product: ref,
    objections: objections.flatMap((o) => o.customer.slice(0, 1).map((s) => ({ objection_id: o.id, quote: s.quote, start: s.start, end: s.end, speaker: s.speaker }))),
    misstated: facts.filter((f) => f.verdict === 'misstated').map((f) => ({ fact_id: f.id, label: f.label, stated: f.stated, correct: f.correct })),
    launch: {
      message: { message: ROLE_PLAY_OPENING, context: { coaching_report_id: reportId, product_id: ref?.id ?? null, page: 'coaching' } },
      quick_action: { action_id: 'scenario', params: { coaching_report_id: reportId } },
    },
  };
}

/** What the coach model is told to play: the customer of the call, raising the call's objections in their words. */
export function rolePlayInstructions(reportId: number, scenario: CoachScenario): string {
  const product = scenario.product ? `「${scenario.product.name}」` : 'the product discussed';
  return [
    `Role-play from a real customer call (coaching report #${reportId}) about ${product}.`,
    "You play the customer of that call. Stay in role: raise the customer's real objections below one at a time, in the customer's own words, and react to the employee's answers as that customer would.",
    'The objections, as the customer said them:',
    ...scenario.objections.map((o, i) => `${i + 1}. "${o.quote}" (${o.speaker}, ${clock(o.start)})`),
    ...(scenario.misstated.length
      ? [
          'In the call the employee misstated these facts; if the employee repeats a mistake, stay in role but question it:',
          ...scenario.misstated.map((m) => `- ${m.label}: the employee said ${m.stated}; the approved value is ${m.correct}`),
        ]
      : []),
    'When every objection has been handled, or the employee writes 结束练习, step out of role and give short feedback on each objection, based on the approved knowledge.',
  ].join('\n');
}
