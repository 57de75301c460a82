import type { Context } from 'koa';
import { z } from 'zod';
import { notFound, validationFailed } from './errors.js';
import { jsonBodyOf } from './json-body.js';

const ARTICLE: Record<string, string> = { array: 'an', object: 'an', int: 'an' };

/**
 * zod's own wording for a value of the wrong type names what it received, as its parser saw it (`expected number,
 * received NaN` for `abc` in a number's place): said here as what the field must be, or that it is missing.
 */
function clientMessage(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_type') return issue.message;
  const wrong = /^Invalid input: expected (\w+), received (\w+)$/.exec(issue.message);
  if (!wrong) return issue.message;
  const [, expected, received] = wrong as unknown as [string, string, string];
  if (received === 'undefined') return 'is required';
  return `must be ${ARTICLE[expected] ?? 'a'} ${expected === 'int' ? 'integer' : expected}`;
}

function describe(error: z.ZodError): { message: string; fields: { path: string; message: string }[] } {
  const fields = error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: clientMessage(issue) }));
  const first = fields[0];
  return { message: first ? `Invalid ${first.path}: ${first.message}` : 'Invalid request', fields };
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const { message, fields } = describe(result.error);
    throw validationFailed(message, fields);
  }
  return result.data;
}

/** The JSON body, validated. A missing body is treated as an empty object so required fields report by name. */
export const parseBody = <S extends z.ZodType>(ctx: Context, schema: S): z.output<S> =>
  parseWith(schema, jsonBodyOf(ctx) ?? {});

export const parseQuery = <S extends z.ZodType>(ctx: Context, schema: S): z.output<S> => parseWith(schema, ctx.query);

/** Row ids are 32-bit integer columns (PostgreSQL refuses a larger value in a comparison with one). */
const MAX_ROW_ID = 2_147_483_647;

/**
 * A resource id from a route parameter: decimal digits only (so `0x1`, `1e0` or ` 1` never reach another row, 400).
 * A well-formed id that cannot exist (0, negative, beyond 32 bits) is a 404 like any other missing one.
 */
export function parseId(value: string | undefined, what: string): number {
  if (!value || !/^-?\d+$/.test(value)) throw validationFailed(`${what} id must be a positive integer`);
  const id = Number(value);
  if (id < 1 || id > MAX_ROW_ID) throw notFound(what);
  return id;
}

/** Query-string helpers: page/size paging as in spec part 8. */
export const Paging = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(200).default(20),
});

/**
 * `q` + `page`/`size` of the lists that answer an array: the whole list when neither page nor size is given (the
 * clients that predate paging), else one page (size 1–500, default 20; page default 1).
 */
export const SearchPaging = z.object({
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).optional(),
  size: z.coerce.number().int().min(1).max(500).optional(),
});
export type SearchPagingFilter = z.output<typeof SearchPaging>;

/** A query flag given as `true`/`false`/`1`/`0`. */
export const QueryBool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');
