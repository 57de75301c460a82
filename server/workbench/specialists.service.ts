import type { Db } from '../db/knex.js';
import type { Specialist } from '../../contract/workbench.js';
import { GENERAL_ASSISTANT_KEY, WorkbenchErrorCode } from '../../contract/workbench.js';
import type { User } from '../../contract/users.js';
import { AppError, forbidden, notFound, validationFailed } from '../http/errors.js';
import { parseJson } from '../db/rows.js';
import { now } from '../db/time.js';
import { assertKeyFree, givenFields } from './fields.js';
import { findSkillsByKeys } from './definitions.service.js';
import { GENERAL_ASSISTANT } from './builtins.js';
import type { SpecialistInput, SpecialistListFilter } from './specialists.schema.js';
import { searchByNameAndPage } from './search-by-name.js';

const TABLE = 'specialists';

interface SpecialistRow {
  id: number;
  key: string;
  name: string;
  state: Specialist['state'];
  rule_file_markdown: string;
  allowed_skills: string;
  interaction_card_json: string | null;
  inputs_records_json: string | null;
  created_at: string;
  updated_at: string;
}

const toSpecialist = (row: SpecialistRow): Specialist => ({
  id: Number(row.id),
  key: row.key,
  name: row.name,
  state: row.state,
  rule_file_markdown: row.rule_file_markdown,
  allowed_skills: parseJson<string[]>(row.allowed_skills, []),
  interaction_card_json: row.interaction_card_json,
  inputs_records_json: row.inputs_records_json,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** Spec 4.11: system specialists appear only when `system` is asked for; `all` is for admins. */
export async function listSpecialists(db: Db, { state, ...filter }: SpecialistListFilter, viewer: User): Promise<Specialist[]> {
  const query = db<SpecialistRow>(TABLE).orderBy('id');
  if (state === 'all') {
    if (viewer.role !== 'admin') throw forbidden('Listing specialists of every state is for administrators');
    query.whereNot({ state: 'system' });
  } else {
    query.where('state', state || 'active');
  }
  return (await searchByNameAndPage(query, filter)).map(toSpecialist);
}

export async function getSpecialist(db: Db, id: number): Promise<Specialist> {
  const row = await db<SpecialistRow>(TABLE).where({ id }).first();
  if (!row) throw notFound('Specialist');
  return toSpecialist(row);
}

/**
 * The specialist that answers a chat: the one named when it is active or system, otherwise the general assistant.
 * The seeded general assistant cannot be deleted; the built-in definition stands in should its row be missing.
 */
export async function resolveSpecialist(db: Db, key: string | undefined): Promise<Specialist> {
  const keys = key && key !== GENERAL_ASSISTANT_KEY ? [key, GENERAL_ASSISTANT_KEY] : [GENERAL_ASSISTANT_KEY];
  const rows = await db<SpecialistRow>(TABLE).whereIn('key', keys).whereIn('state', ['active', 'system']);
  const row = rows.find((r) => r.key === key) ?? rows.find((r) => r.key === GENERAL_ASSISTANT_KEY);
  if (row) return toSpecialist(row);
  const stamp = now();
  return { id: 0, ...GENERAL_ASSISTANT, interaction_card_json: null, inputs_records_json: null, created_at: stamp, updated_at: stamp };
}

async function assertKnownSkills(db: Db, keys: string[] | undefined): Promise<void> {
  if (!keys?.length) return;
  const known = new Set((await findSkillsByKeys(db, keys)).map((s) => s.key));
  const unknown = keys.filter((k) => !known.has(k));
  if (unknown.length) throw validationFailed(`Unknown skill key(s) in allowed_skills: ${unknown.join(', ')}`, unknown.map((k) => ({ path: 'allowed_skills', message: `unknown skill "${k}"` })));
}

function toRow(input: SpecialistInput): Partial<SpecialistRow> {
  const row: Partial<SpecialistRow> = givenFields(input, ['key', 'name', 'state', 'rule_file_markdown', 'interaction_card_json', 'inputs_records_json']);
  // Compact JSON: JSON.stringify adds no spaces.
  if (input.allowed_skills !== undefined) row.allowed_skills = JSON.stringify(input.allowed_skills);
  return row;
}

export async function createSpecialist(db: Db, input: SpecialistInput & { key: string; name: string }): Promise<Specialist> {
  if (input.state === 'system') throw validationFailed('State "system" is reserved for built-in specialists');
  await assertKeyFree(db, TABLE, input.key);
  await assertKnownSkills(db, input.allowed_skills);
  const stamp = now();
  const [created] = await db(TABLE)
    .insert({ state: 'active', allowed_skills: '[]', ...toRow(input), created_at: stamp, updated_at: stamp })
    .returning('id');
  return getSpecialist(db, Number((created as { id: number }).id));
}

/** A built-in (system) specialist keeps its key and state; no other specialist can become system. */
function assertStateChange(current: Specialist, input: SpecialistInput): void {
  const isSystem = current.state === 'system';
  if (input.state !== undefined && (input.state === 'system') !== isSystem) {
    throw validationFailed(isSystem ? 'A system specialist keeps state "system"' : 'State "system" is reserved for built-in specialists');
  }
  if (isSystem && input.key !== undefined && input.key !== current.key) throw validationFailed('The key of a system specialist cannot change');
}

export async function updateSpecialist(db: Db, id: number, input: SpecialistInput): Promise<Specialist> {
  const current = await getSpecialist(db, id);
  assertStateChange(current, input);
  await assertKeyFree(db, TABLE, input.key, id);
  await assertKnownSkills(db, input.allowed_skills);
  await db(TABLE).where({ id }).update({ ...toRow(input), updated_at: now() });
  return getSpecialist(db, id);
}

export async function deleteSpecialist(db: Db, id: number): Promise<{ id: number; deleted: true }> {
  const current = await getSpecialist(db, id);
  if (current.state === 'system') throw new AppError(403, WorkbenchErrorCode.systemSpecialist, 'A system specialist cannot be deleted');
  await db(TABLE).where({ id }).delete();
  return { id, deleted: true };
}
