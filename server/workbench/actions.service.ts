import type { Db } from '../db/knex.js';
import type { WorkbenchAction } from '../../contract/workbench.js';
import { notFound, validationFailed } from '../http/errors.js';
import { now } from '../db/time.js';
import { assertKeyFree, givenFields } from './fields.js';
import { definitionKeyExists } from './definitions.service.js';
import type { ActionFilter, ActionInput } from './actions.schema.js';

const TABLE = 'workbench_actions';

type ActionRow = Omit<WorkbenchAction, 'id'> & { id: number };

const toAction = (row: ActionRow): WorkbenchAction => ({
  id: Number(row.id),
  key: row.key,
  name: row.name,
  description: row.description,
  kind: row.kind,
  skill_key: row.skill_key,
  xapp_key: row.xapp_key,
  prompt: row.prompt,
  config_json: row.config_json,
  state: row.state,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export async function listActions(db: Db, filter: ActionFilter): Promise<WorkbenchAction[]> {
  const query = db<ActionRow>(TABLE).orderBy('id');
  if (filter.state) query.where({ state: filter.state });
  if (filter.kind) query.where({ kind: filter.kind });
  return (await query).map(toAction);
}

export async function getAction(db: Db, id: number): Promise<WorkbenchAction> {
  const row = await db<ActionRow>(TABLE).where({ id }).first();
  if (!row) throw notFound('Action');
  return toAction(row);
}

type Target = Pick<WorkbenchAction, 'kind' | 'skill_key' | 'xapp_key' | 'prompt'>;

/** An action points at what its kind needs, and only at that: the other target key is cleared. */
async function resolveTarget(db: Db, target: Target): Promise<Target> {
  if (target.kind === 'skill') {
    if (!target.skill_key) throw validationFailed('An action of kind "skill" needs skill_key');
    if (!(await definitionKeyExists(db, 'skill', target.skill_key))) throw validationFailed(`Unknown skill "${target.skill_key}"`);
    return { ...target, xapp_key: null };
  }
  if (target.kind === 'xapp') {
    if (!target.xapp_key) throw validationFailed('An action of kind "xapp" needs xapp_key');
    if (!(await definitionKeyExists(db, 'xapp', target.xapp_key))) throw validationFailed(`Unknown app definition "${target.xapp_key}"`);
    return { ...target, skill_key: null };
  }
  if (!target.prompt.trim()) throw validationFailed('An action of kind "prompt" needs a prompt');
  return { ...target, skill_key: null, xapp_key: null };
}

const plainFields = (input: ActionInput) => givenFields(input, ['key', 'name', 'description', 'config_json', 'state']);

export async function createAction(db: Db, input: ActionInput & { key: string; name: string; kind: WorkbenchAction['kind'] }): Promise<WorkbenchAction> {
  await assertKeyFree(db, TABLE, input.key);
  const target = await resolveTarget(db, { kind: input.kind, skill_key: input.skill_key ?? null, xapp_key: input.xapp_key ?? null, prompt: input.prompt ?? '' });
  const stamp = now();
  const [created] = await db(TABLE)
    .insert({ ...plainFields(input), ...target, created_at: stamp, updated_at: stamp })
    .returning('id');
  return getAction(db, Number((created as { id: number }).id));
}

export async function updateAction(db: Db, id: number, input: ActionInput): Promise<WorkbenchAction> {
  const current = await getAction(db, id);
  await assertKeyFree(db, TABLE, input.key, id);
  const target = await resolveTarget(db, {
    kind: input.kind ?? current.kind,
    skill_key: input.skill_key !== undefined ? input.skill_key : current.skill_key,
    xapp_key: input.xapp_key !== undefined ? input.xapp_key : current.xapp_key,
    prompt: input.prompt ?? current.prompt,
  });
  await db(TABLE).where({ id }).update({ ...plainFields(input), ...target, updated_at: now() });
  return getAction(db, id);
}
