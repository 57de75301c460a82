// A rule's phrases compiled into one regular expression over normalised text (normalize.ts). Phrase marks: `*` a
// few words between (at most GAP characters, never across a sentence), `(a|b)` alternatives, `(…)?` optional words;
// every other character is literal and normalised like the transcript. Pure functions.
//
// The alternation is compiled with RE2 (an automaton, linear in the text): with a backtracking RegExp, a phrase of
// several gaps (`a*a*a*a*a*a*a*ab`) against a long run of one letter held the server for seconds.
import RE2 from 're2';
import { SENTENCE, normalizeText } from './normalize.js';

export const GAP = 12;

/** The built-in negations of a forbidden phrase: 不保本, 不能保证收益, 并非零风险, 没有保本 are not the promise. */
export const DEFAULT_NEGATIONS = ['不', '没有', '没', '无法', '不能', '不会', '并非', '不是', '非', '未', '别'];
/** Words that may stand between the negation and the phrase: 不(能)(保证)保本. */
const NEGATION_FILLERS = '(?:能|会|可以|一定|敢|可能)?(?:保证|承诺|担保|确保|是|说|做)?';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class PhraseError extends Error {
  override name = 'PhraseError';
}

/** The regular expression source of one phrase. */
export function phraseSource(phrase: string): string {
  let out = '';
  let literal = '';
  let depth = 0;
  const flush = () => {
    out += escape(normalizeText(literal));
    literal = '';
  };
  for (let i = 0; i < phrase.length; i++) {
    const ch = phrase[i]!;
    if (ch === '*' || ch === '(' || ch === ')' || ch === '|' || (ch === '?' && phrase[i - 1] === ')')) {
      flush();
      if (ch === '*') out += `[^${SENTENCE}]{0,${GAP}}?`;
      else if (ch === '(') {
        depth++;
        out += '(?:';
      } else if (ch === ')') {
        if (--depth < 0) throw new PhraseError(`"${phrase}": a ")" without its "("`);
        out += ')';
      } else out += ch;
    } else literal += ch;
  }
  flush();
  if (depth !== 0) throw new PhraseError(`"${phrase}": a "(" without its ")"`);
  if (!out.replace(/\(\?:|\)|\||\?/g, '')) throw new PhraseError(`"${phrase}": no words to match`);
  return out;
}

/** All phrases as one linear-time alternation (RE2: global, unicode); null when there are none. */
export function compilePhrases(phrases: string[]): RegExp | null {
  const sources = phrases.filter((p) => p.trim()).map(phraseSource);
  if (!sources.length) return null;
  let regex: RegExp;
  try {
    regex = new RE2(sources.map((s) => `(?:${s})`).join('|'), 'gu');
  } catch (err) {
    throw new PhraseError(`${phrases.join(', ')}: cannot be compiled to a linear-time matcher (${(err as Error).message})`);
  }
  // A pattern that matches nothing at all would match everywhere: refused.
  if (regex.test('')) throw new PhraseError(`${phrases.join(', ')}: a phrase that matches empty text`);
  return regex;
}

/** Matches whose text just before (in the same clause) is a negation, compiled once per rule. */
export function compileNegations(negations: string[] | undefined): RegExp | null {
  const words = (negations ?? DEFAULT_NEGATIONS).map((n) => normalizeText(n)).filter(Boolean);
  if (!words.length) return null;
  words.sort((a, b) => b.length - a.length);
  return new RegExp(`(?:${words.map(escape).join('|')})${NEGATION_FILLERS}$`);
}
