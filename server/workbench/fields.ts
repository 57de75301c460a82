// Field schemas and checks shared by the workbench definitions (specialists, skills, xapps, actions).
import { z } from 'zod';
import type { Db } from '../db/knex.js';
import { conflict } from '../http/errors.js';

export const text = (max: number) => z.string().trim().max(max);

/** Keys are identifiers used in URLs, prompts and JSON lists: letters, digits, `_`, `-` and `.`. */
export const KeyField = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must start with a letter or digit and hold only letters, digits, "_", "-" or "."');

/** For partial updates: an empty body is a 400 rather than a silent no-op. */
export const atLeastOneField = (v: object): boolean => Object.values(v).some((field) => field !== undefined);

/** The PUT schema of a create shape: every field optional, at least one given. */
export const updateSchema = <T extends z.ZodRawShape>(shape: T) => z.object(shape).partial().refine(atLeastOneField, 'give at least one field to change');

export const DefinitionStateField = z.enum(['active', 'inactive']);

const MAX_JSON_CHARS = 200_000;

/**
 * A JSON value given either as JSON text or as an object/array; it comes out as compact JSON text
 * (JSON.stringify without spaces). Text that does not parse is a 400.
 */
export const JsonTextField = z.union([z.string().max(MAX_JSON_CHARS), z.record(z.string(), z.unknown()), z.array(z.unknown())]).transform((value, ctx) => {
  if (typeof value !== 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(JSON.parse(value));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be valid JSON' });
    return z.NEVER;
  }
});

/** The named fields of a partial input that were given: omitted stays apart from null and false. */
export function givenFields<T extends object, K extends keyof T>(input: T, fields: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const field of fields) if (input[field] !== undefined) out[field] = input[field];
  return out;
}

/** Uniqueness of a key column, checked before writing so the 409 names the key (an update excludes the record itself). */
export async function assertKeyFree(db: Db, table: string, key: string | undefined, exceptId?: number, scope: Record<string, string> = {}): Promise<void> {
  if (key === undefined) return;
  const query = db(table).where({ ...scope, key });
  if (exceptId !== undefined) query.whereNot({ id: exceptId });
  if (await query.first('id')) throw conflict(`The key "${key}" is already used`);
}
