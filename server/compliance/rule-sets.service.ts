// Rule sets edited by admins. Every save is a new version (kept in compliance_rule_set_versions), so an inspection
// that names (rule set, version) can always be explained by the rules it used. A rule set is compiled once per
// version; the compiled form is cached by (id, version), cleared only when a branch receives versions from central.
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/knex.js';
import { ComplianceErrorCode, type ComplianceRule, type RuleSet } from '../../contract/compliance.js';
import { AppError, notFound, validationFailed } from '../http/errors.js';
import { now } from '../db/time.js';
import { findProductRow } from '../products/products.repository.js';
import { compileRuleSet, type CompiledRuleSet } from './engine.js';
import { PhraseError } from './phrases.js';
import { findRuleSet, findRuleSetVersion, insertRuleSet, listRuleSets, updateRuleSet, type RuleSetValues } from './compliance.repository.js';
import type { RuleSetUpdateInput } from './compliance.schema.js';

const compiled = new LRUCache<string, CompiledRuleSet>({ max: 64 });

/** A branch whose versions central replaced (sync down) compiles them again. */
export const forgetCompiledRuleSets = (): void => compiled.clear();

/** The compiled rules of a version (rule sets are immutable per version). */
export async function compiledVersion(db: Db, set: Pick<RuleSet, 'id' | 'version'>, rules?: ComplianceRule[]): Promise<CompiledRuleSet> {
  const key = `${set.id}:${set.version}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const source = rules ?? (await findRuleSetVersion(db, set.id, set.version)) ?? [];
  const fresh = compileRuleSet(source);
  compiled.set(key, fresh);
  return fresh;
}

/** Every phrase must compile; 400 compliance.invalid_rule naming the rule otherwise. */
function checkRules(rules: ComplianceRule[]): void {
  for (const rule of rules) {
    try {
      compileRuleSet([rule]);
    } catch (err) {
      if (err instanceof PhraseError) throw new AppError(400, ComplianceErrorCode.invalidRule, `Rule ${rule.key}: ${err.message}`, { rule_key: rule.key, reason: err.message });
      throw err;
    }
  }
}

async function checkScope(db: Db, scope: RuleSet['scope'], value: string | null | undefined): Promise<string | null> {
  if (scope === 'all') return null;
  if (!value) throw validationFailed(`Invalid scope_value: a rule set of scope ${scope} names its ${scope === 'product' ? 'product id' : 'category'}`, [{ path: 'scope_value', message: 'required' }]);
  if (scope === 'product' && (!/^\d{1,9}$/.test(value) || !(await findProductRow(db, Number(value))))) {
    throw validationFailed(`Invalid scope_value: product ${value} does not exist`, [{ path: 'scope_value', message: 'unknown product' }]);
  }
  return value;
}

export const ruleSets = (db: Db, status: 'active' | 'inactive' | 'all') => listRuleSets(db, status);

export async function getRuleSet(db: Db, id: number): Promise<RuleSet> {
  const set = await findRuleSet(db, id);
  if (!set) throw notFound('Rule set');
  return set;
}

export async function createRuleSet(db: Db, input: Omit<RuleSetValues, 'scope_value'> & { scope_value?: string | null }): Promise<RuleSet> {
  checkRules(input.rules);
  const scope_value = await checkScope(db, input.scope, input.scope_value);
  return getRuleSet(db, await insertRuleSet(db, { ...input, scope_value }, now()));
}

export async function editRuleSet(db: Db, id: number, input: RuleSetUpdateInput): Promise<RuleSet> {
  const current = await getRuleSet(db, id);
  if (input.rules) checkRules(input.rules);
  const scope = input.scope ?? current.scope;
  if (current.is_default && (scope !== 'all' || input.status === 'inactive')) {
    throw new AppError(400, ComplianceErrorCode.defaultRuleSet, 'The default rule set keeps the scope "all" and stays active: it applies when no other rule set does');
  }
  const scope_value = await checkScope(db, scope, input.scope_value !== undefined ? input.scope_value : input.scope && input.scope !== current.scope ? null : current.scope_value);
  await updateRuleSet(db, current, { name: input.name ?? current.name, scope, scope_value, status: input.status ?? current.status, rules: input.rules ?? current.rules }, now()).catch((err) => {
    throw err instanceof Error && err.message === 'rule set changed meanwhile' ? new AppError(409, 'conflict', 'The rule set was changed by someone else meanwhile: reload it and save again') : err;
  });
  return getRuleSet(db, id);
}

/** Soft delete (inspections keep naming its versions); the default cannot go. */
export async function deactivateRuleSet(db: Db, id: number): Promise<RuleSet> {
  const current = await getRuleSet(db, id);
  if (current.is_default) throw new AppError(400, ComplianceErrorCode.defaultRuleSet, 'The default rule set cannot be deleted: it applies when no other rule set does');
  return current.status === 'inactive' ? current : editRuleSet(db, id, { status: 'inactive' });
}

/** The rule set for a call: one of the product's own, else its category's, else the newest `all` set (the default last). */
export async function ruleSetFor(db: Db, product: { id: number; category: string } | null): Promise<RuleSet> {
  const active = await listRuleSets(db, 'active');
  const newestFirst = [...active].reverse();
  const pick =
    (product && newestFirst.find((s) => s.scope === 'product' && s.scope_value === String(product.id))) ||
    (product && product.category && newestFirst.find((s) => s.scope === 'category' && s.scope_value === product.category)) ||
    newestFirst.find((s) => s.scope === 'all' && !s.is_default) ||
    active.find((s) => s.is_default);
  if (!pick) throw new AppError(500, 'internal_error', 'No compliance rule set is active');
  return pick;
}
