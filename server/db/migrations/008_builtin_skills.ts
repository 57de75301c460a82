// Built-in skills added after an install first migrated (call_review): inserted when missing, and offered by the
// general assistant after the skills it already has. A fresh install got them from 004 and changes nothing here.
import type { Knex } from 'knex';
import { BUILTIN_SKILLS, GENERAL_ASSISTANT, builtinSkillRow } from '../../workbench/builtins.js';

export async function up(db: Knex): Promise<void> {
  const present = new Set<string>(await db('workbench_definitions').where({ object_kind: 'skill' }).pluck('key'));
  const missing = BUILTIN_SKILLS.filter((s) => !present.has(s.key));
  if (!missing.length) return;
  const stamp = new Date().toISOString();
  await db('workbench_definitions').insert(missing.map((s) => builtinSkillRow(s, stamp)));
  const assistant: { allowed_skills: string } | undefined = await db('specialists').where({ key: GENERAL_ASSISTANT.key }).first('allowed_skills');
  if (!assistant) return;
  const allowed = JSON.parse(assistant.allowed_skills) as string[];
  const added = missing.map((s) => s.key).filter((key) => !allowed.includes(key));
  await db('specialists').where({ key: GENERAL_ASSISTANT.key }).update({ allowed_skills: JSON.stringify([...allowed, ...added]), updated_at: stamp });
}

export async function down(): Promise<void> {
  // The skills stay: tasks and specialists may refer to them by now.
}
