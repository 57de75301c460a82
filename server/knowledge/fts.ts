// How index terms and query terms are written for each dialect's full-text engine: SQLite FTS5 (unicode61
// tokenizer over the space-joined terms) and PostgreSQL tsvector/tsquery literals. Terms hold only letters,
// digits and marks (see terms.ts), so they need no escaping inside the quotes used here.
import type { QueryTerm } from './terms.js';

/** FTS5 document text: the terms joined by spaces, re-split identically by the unicode61 tokenizer. */
export const ftsDocument = (terms: string[]): string => terms.join(' ');

/** Largest position PostgreSQL stores; later positions are clamped, which only blurs phrases past it. */
const MAX_TS_POSITION = 16383;

/**
 * A tsvector literal with positions ('理财':3,9 'fund':4), built here rather than by to_tsvector so that neither
 * the server's text-search parser nor its locale decides how Chinese text is cut.
 */
export function tsvectorLiteral(terms: string[]): string {
  const positions = new Map<string, number[]>();
  terms.forEach((term, i) => {
    const list = positions.get(term);
    const position = Math.min(i + 1, MAX_TS_POSITION);
    if (!list) positions.set(term, [position]);
    else if (list[list.length - 1] !== position) list.push(position);
  });
  return Array.from(positions, ([term, list]) => `'${term}':${list.join(',')}`).join(' ');
}

/** FTS5 MATCH expression for chunks containing every term: "理财 财产" is a phrase, "manag"* a prefix. */
export function ftsMatch(terms: QueryTerm[]): string {
  return terms.map((term) => (term.kind === 'prefix' ? `"${term.text}"*` : `"${term.parts.join(' ')}"`)).join(' AND ');
}

/** tsquery literal for chunks containing every term: '理财' <-> '财产' is a phrase, 'manag':* a prefix. */
export function tsqueryLiteral(terms: QueryTerm[]): string {
  return terms.map((term) => (term.kind === 'prefix' ? `'${term.text}':*` : `(${term.parts.map((part) => `'${part}'`).join(' <-> ')})`)).join(' & ');
}
