// Skill and app (xapp) definitions: one table, told apart by object_kind.
import type { Db } from '../db/knex.js';
import type { Skill, XApp } from '../../contract/workbench.js';
import { WorkbenchErrorCode } from '../../contract/workbench.js';
import { AppError, notFound } from '../http/errors.js';
import { parseJson, toBool } from '../db/rows.js';
import { now } from '../db/time.js';
import { searchByNameAndPage } from './search-by-name.js';
import { assertKeyFree, givenFields } from './fields.js';
import type { DefinitionFilter, DefinitionInput } from './definitions.schema.js';

export type DefinitionKind = 'skill' | 'xapp';
type DefinitionOf<K extends DefinitionKind> = K extends 'skill' ? Skill : XApp;

const TABLE = 'workbench_definitions';
const LABEL: Record<DefinitionKind, string> = { skill: 'Skill', xapp: 'App definition' };

interface DefinitionRow {
  id: number;
  object_kind: DefinitionKind;
  key: string;
  name: string;
  description: string;
  state: Skill['state'];
  exposed_to_user: boolean | number;
  output_kind: Skill['output_kind'] | null;
  prompt_template: string;
  config_json: string;
  builtin: boolean | number;
  created_at: string;
  updated_at: string;
}

function toDefinition<K extends DefinitionKind>(row: DefinitionRow): DefinitionOf<K> {
  const base = {
    id: Number(row.id),
    key: row.key,
    name: row.name,
    description: row.description,
    state: row.state,
    exposed_to_user: toBool(row.exposed_to_user),
    config_json: row.config_json,
    builtin: toBool(row.builtin),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  const definition: Skill | XApp =
    row.object_kind === 'skill'
      ? { ...base, object_kind: 'skill', output_kind: row.output_kind ?? 'report', prompt_template: row.prompt_template }
      : { ...base, object_kind: 'xapp' };
  return definition as DefinitionOf<K>;
}

/** The config_json of a skill as an object (template defaults such as a checklist). */
export const skillConfig = (skill: Skill): Record<string, unknown> => parseJson<Record<string, unknown>>(skill.config_json, {});

/** Employees see what is offered to them (active and exposed); admins see everything and may filter. */
export async function listDefinitions<K extends DefinitionKind>(db: Db, kind: K, filter: DefinitionFilter, isAdmin: boolean): Promise<DefinitionOf<K>[]> {
  const query = db<DefinitionRow>(TABLE).where({ object_kind: kind }).orderBy('id');
  if (!isAdmin) query.where({ state: 'active', exposed_to_user: true });
  if (filter.state) query.where({ state: filter.state });
  if (filter.exposed_to_user !== undefined) query.where({ exposed_to_user: filter.exposed_to_user });
  return (await searchByNameAndPage(query, filter)).map((row) => toDefinition<K>(row));
}

export async function getDefinition<K extends DefinitionKind>(db: Db, kind: K, id: number, isAdmin = true): Promise<DefinitionOf<K>> {
  const row = await db<DefinitionRow>(TABLE).where({ object_kind: kind, id }).first();
  if (!row || (!isAdmin && (row.state !== 'active' || !toBool(row.exposed_to_user)))) throw notFound(LABEL[kind]);
  return toDefinition<K>(row);
}

export async function findSkillsByKeys(db: Db, keys: string[]): Promise<Skill[]> {
  if (!keys.length) return [];
  return (await db<DefinitionRow>(TABLE).where({ object_kind: 'skill' }).whereIn('key', keys)).map((row) => toDefinition<'skill'>(row));
}

export async function definitionKeyExists(db: Db, kind: DefinitionKind, key: string): Promise<boolean> {
  return !!(await db(TABLE).where({ object_kind: kind, key }).first('id'));
}

function toRow(kind: DefinitionKind, input: DefinitionInput): Partial<DefinitionRow> {
  const common = givenFields(input, ['key', 'name', 'description', 'state', 'exposed_to_user', 'config_json']);
  return kind === 'skill' ? { ...common, ...givenFields(input, ['output_kind', 'prompt_template']) } : common;
}

export async function createDefinition<K extends DefinitionKind>(db: Db, kind: K, input: DefinitionInput & { key: string; name: string }): Promise<DefinitionOf<K>> {
  await assertKeyFree(db, TABLE, input.key, undefined, { object_kind: kind });
  const stamp = now();
  const [created] = await db(TABLE)
    .insert({
      object_kind: kind,
      exposed_to_user: true,
      output_kind: kind === 'skill' ? 'report' : null,
      ...toRow(kind, input),
      builtin: false,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id');
  return getDefinition(db, kind, Number((created as { id: number }).id));
}

/** Whether specialists or actions refer to this key: renaming it would leave them pointing at nothing. */
async function keyInUse(db: Db, kind: DefinitionKind, key: string): Promise<boolean> {
  const column = kind === 'skill' ? 'skill_key' : 'xapp_key';
  if (await db('workbench_actions').where(column, key).first('id')) return true;
  if (kind === 'xapp') return false;
  const lists: string[] = await db('specialists').pluck('allowed_skills');
  return lists.some((json) => parseJson<string[]>(json, []).includes(key));
}

export async function updateDefinition<K extends DefinitionKind>(db: Db, kind: K, id: number, input: DefinitionInput): Promise<DefinitionOf<K>> {
  const current = await getDefinition(db, kind, id);
  if (input.key !== undefined && input.key !== current.key) {
    await assertKeyFree(db, TABLE, input.key, id, { object_kind: kind });
    if (await keyInUse(db, kind, current.key)) {
      throw new AppError(409, WorkbenchErrorCode.definitionInUse, `The key "${current.key}" is referenced by specialists or actions and cannot change`);
    }
  }
  await db(TABLE).where({ id }).update({ ...toRow(kind, input), updated_at: now() });
  return getDefinition(db, kind, id);
}
