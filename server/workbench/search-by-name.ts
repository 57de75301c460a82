// Searching skills, apps and specialists by name. A built-in keeps its shipped English name in the database, but
// the app shows it in the reader's language (contract/workbench.ts BUILTIN_TEXTS) for as long as it is unchanged,
// so a search also finds it by that name in any interface language: 批量 finds "Batch extraction".
import type { Knex } from 'knex';
import { BUILTIN_TEXTS, SHIPPED_TEXTS, type ShippedKey } from '../../contract/workbench.js';
import { whereContains } from '../db/contains.js';
import { applyPaging } from '../db/paginate.js';

const SHIPPED_KEYS = Object.keys(SHIPPED_TEXTS) as ShippedKey[];

/** Built-ins whose shipped name, in some language, contains the text (case-insensitive). */
const shippedKeysNamed = (text: string): ShippedKey[] =>
  SHIPPED_KEYS.filter((key) => Object.values(BUILTIN_TEXTS).some((texts) => texts[key].name.toLowerCase().includes(text.toLowerCase())));

/** Keeps the rows whose key or stored name contains `filter.q`, or that are unchanged built-ins shown by such a name; then pages. */
export function searchByNameAndPage<Q extends Knex.QueryBuilder>(query: Q, filter: { q?: string; page?: number; size?: number }): Q {
  const text = filter.q;
  if (text) {
    query.where((any) => {
      whereContains(any, ['key', 'name'], text);
      for (const key of shippedKeysNamed(text)) any.orWhere({ key, name: SHIPPED_TEXTS[key].name });
    });
  }
  return applyPaging(query, filter);
}
