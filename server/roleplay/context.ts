// What a scenario's session is checked and played against: its product (as the compliance engine and the model
// prompt need it) and the compiled rule set that applies to that product.
import type { Db } from '../db/knex.js';
import { perDatabase } from '../db/read-cache.js';
import type { CallProduct, CompiledRuleSet } from '../compliance/engine.js';
import { compiledVersion, ruleSetFor } from '../compliance/rule-sets.service.js';
import { findProductRow } from '../products/products.repository.js';
import { searchChunks } from '../knowledge/search.js';
import type { Scenario } from '../../contract/roleplay.js';
import type { PromptProduct } from './customer.js';

export interface ScenarioContext {
  product: (CallProduct & { id: number }) | null;
  rules: CompiledRuleSet;
}

const FACT_CHUNKS = 3;
const FACT_CHARS = 600;

// Every turn is checked against its scenario's rules: which rule set applies to the product is read again after
// at most 2 s (as knowledge searches are), not on every turn (the rule set list is read and parsed whole).
const contexts = perDatabase<ScenarioContext>({ name: 'roleplay-context', maxBytes: 2 * 1024 * 1024, ttlMs: 2_000, sizeOf: () => 20_000 });

export async function scenarioContext(db: Db, scenario: Pick<Scenario, 'product_id'>): Promise<ScenarioContext> {
  return (await contexts(db).get(String(scenario.product_id), () => freshContext(db, scenario)))!;
}

async function freshContext(db: Db, scenario: Pick<Scenario, 'product_id'>): Promise<ScenarioContext> {
  const row = scenario.product_id === null ? undefined : await findProductRow(db, scenario.product_id);
  const product = row ? { id: Number(row.id), name: row.name, code: row.code, risk_level: row.risk_level, cooling_off_days: Number(row.cooling_off_days ?? 0), category: row.category } : null;
  const set = await ruleSetFor(db, product);
  const rules = await compiledVersion(db, set, set.rules);
  return { product, rules };
}

/** The product as the model customer is told of it, with facts from the approved knowledge about it. */
export async function promptProduct(db: Db, product: ScenarioContext['product']): Promise<PromptProduct | null> {
  if (!product) return null;
  const hits = await searchChunks(db, product.name, FACT_CHUNKS);
  return { name: product.name, risk_level: product.risk_level, facts: hits.map((h) => h.content.replace(/\s+/g, ' ').slice(0, FACT_CHARS)) };
}
