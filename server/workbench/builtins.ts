// What the product ships with: the general assistant and the skills it can run. Seeded by migration 004.
import { GENERAL_ASSISTANT_KEY, SHIPPED_TEXTS, type SkillOutputKind } from '../../contract/workbench.js';

export interface BuiltinSkill {
  key: string;
  name: string;
  description: string;
  output_kind: SkillOutputKind;
  prompt_template: string;
  config: Record<string, unknown>;
}

export const BUILTIN_SKILLS: BuiltinSkill[] = [
  {
    key: 'batch_extraction',
    ...SHIPPED_TEXTS.batch_extraction,
    output_kind: 'table',
    prompt_template: [
      'Extract these fields from each document below:',
      '{{fields}}',
      'When no fields are listed, choose the key fields the documents have in common.',
      'Request: {{message}}',
      '',
      'Answer with JSON only, no prose, in exactly this shape:',
      '{"columns": ["document", "<field>", ...], "rows": [["<document name>", "<value>", ...], ...]}',
      'One row per document in the order given; an empty string when a value is missing.',
      '',
      '{{documents}}',
    ].join('\n'),
    config: { fields: [] },
  },
  {
    key: 'contract_review',
    ...SHIPPED_TEXTS.contract_review,
    output_kind: 'report',
    prompt_template: [
      'Review the contract below against this checklist:',
      '{{checklist}}',
      'Request: {{message}}',
      '',
      'Write a markdown report: a "# Contract review" heading, a short summary, then one section per checklist item',
      'with a verdict (OK, Risk or Missing), the clause quoted and a recommendation, and last a list of other risks.',
      '',
      '{{documents}}',
    ].join('\n'),
    config: {
      checklist: ['Parties and signatures', 'Term and termination', 'Payment terms', 'Liability and indemnity', 'Confidentiality', 'Governing law and disputes'],
    },
  },
  {
    key: 'document_summary',
    ...SHIPPED_TEXTS.document_summary,
    output_kind: 'report',
    prompt_template: [
      'Summarise the documents below for a busy colleague.',
      'Request: {{message}}',
      '',
      'Write markdown: a "# Summary" heading, the key points as a list, then open questions.',
      '',
      '{{documents}}',
    ].join('\n'),
    config: {},
  },
  {
    key: 'call_review',
    ...SHIPPED_TEXTS.call_review,
    output_kind: 'report',
    prompt_template: [
      'Review the customer call transcript below. Each line starts with the speaker label.',
      'Request: {{message}}',
      '',
      'Write markdown: a "# Call review" heading, then one section per speaker with what they said that matters',
      '(questions, needs, objections, commitments), then "Next steps" as a list naming who does what.',
      'Attribute every point to the speaker label it came from; never guess a speaker.',
      '',
      '{{documents}}',
    ].join('\n'),
    // Its sections are per speaker, so it refuses a transcript without speaker labels (note 4.11).
    config: { requires_speakers: true },
  },
  {
    key: 'call_analysis',
    ...SHIPPED_TEXTS.call_analysis,
    output_kind: 'report',
    prompt_template: [
      'Analyse the customer call transcript below. Each line starts with the speaker label.',
      'Request: {{message}}',
      '',
      'These figures were computed from the transcript; do not recompute or repeat them, use them as context:',
      '{{call_figures}}',
      '',
      'Write markdown with exactly two sections:',
      '"## Objections": each objection or concern raised, who raised it (speaker label), a short quote, and whether it was answered.',
      '"## Commitments": each promise or agreed next step, who made it (speaker label) and by when if said.',
      'Write "None." under a section with nothing in it. Attribute every point to the speaker label it came from; never guess a speaker.',
      '',
      '{{documents}}',
    ].join('\n'),
    // The figures are computed in code (server/audio/call-metrics.ts) and put before the model's sections.
    config: { requires_speakers: true, call_figures: true },
  },
];

/** The definitions row of a built-in skill (migrations seed them). */
export const builtinSkillRow = (s: BuiltinSkill, stamp: string) => ({
  object_kind: 'skill',
  key: s.key,
  name: s.name,
  description: s.description,
  state: 'active',
  exposed_to_user: true,
  output_kind: s.output_kind,
  prompt_template: s.prompt_template,
  config_json: JSON.stringify(s.config),
  builtin: true,
  created_at: stamp,
  updated_at: stamp,
});

export const GENERAL_ASSISTANT = {
  key: GENERAL_ASSISTANT_KEY,
  name: SHIPPED_TEXTS[GENERAL_ASSISTANT_KEY].name,
  state: 'system' as const,
  rule_file_markdown: [
    '# General assistant',
    'You help employees with everyday work: answer questions, draft and rewrite text, and run the skills',
    'listed below when a request needs them. Be concise and say so when you are not sure.',
  ].join('\n'),
  allowed_skills: BUILTIN_SKILLS.map((s) => s.key),
};
