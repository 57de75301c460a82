// The system instructions of a workbench exchange: the specialist's job description and its allowed skills.
import type { Skill, Specialist } from '../../contract/workbench.js';

export function systemInstructions(specialist: Specialist, skills: Skill[], running?: Skill): string {
  const lines = [
    'You are a digital worker on the Trainbench workbench, helping an employee with a task.',
    '',
    `## Specialist: ${specialist.name} (${specialist.key})`,
    '',
    '### Job description',
    specialist.rule_file_markdown.trim() || '(none given)',
    '',
    '### Allowed skills (in priority order)',
    ...(skills.length ? skills.map((s, i) => `${i + 1}. ${s.key}: ${s.name}. ${s.description} (output: ${s.output_kind})`) : ['None: answer in conversation only.']),
  ];
  if (running) {
    lines.push('', `## Current step: run the skill ${running.key}`, 'Follow the output format the request asks for exactly; add nothing before or after it.');
  }
  return lines.join('\n');
}
