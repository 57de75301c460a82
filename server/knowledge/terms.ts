// The search vocabulary shared by both dialects. Chinese, Japanese and Korean are written without spaces
// between words, so runs of those scripts are indexed as overlapping character bigrams (plus the run's last
// character on its own); other scripts are indexed as lower-cased words. Queries are cut the same way, so a
// two-character word such as 理财 is one exact index term and a longer CJK query is a phrase of bigrams.

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
// The `v` flag (set subtraction) is built at run time: the compiler's ES2023 target does not know it.
// Group 1 captures a CJK run; otherwise the match is a word of other letters, digits and marks.
const TOKEN = new RegExp(String.raw`([${CJK}]+)|[[\p{L}\p{N}\p{M}]--[${CJK}]]+`, 'gv');
const IS_CJK = new RegExp(`^[${CJK}]`, 'v');

/** Whether the text starts with a Chinese, Japanese or Korean character. */
export const isCjkText = (text: string): boolean => IS_CJK.test(text);

/** Longer words (hashes, base64 blobs) are cut: nobody searches for them whole. */
const MAX_WORD_LENGTH = 48;

// Accents are dropped (café = cafe) the way SQLite's unicode61 tokenizer drops them, on both dialects alike.
const foldWord = (word: string): string => {
  const lower = word.toLowerCase().slice(0, MAX_WORD_LENGTH);
  return /^[\x00-\x7f]*$/.test(lower) ? lower : lower.normalize('NFD').replace(/\p{Mn}/gu, '').normalize('NFC') || lower;
};

/** Calls onWord for each folded word and onCjk for each CJK run, in text order. A plain loop: this runs over every ingested byte. */
function scan(text: string, onWord: (word: string) => void, onCjk: (run: string) => void): void {
  const normalised = text.normalize('NFKC');
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(normalised); match; match = TOKEN.exec(normalised)) {
    if (match[1] === undefined) onWord(foldWord(match[0]));
    else onCjk(match[1]);
  }
}

/** The index terms of a text, in order (positions matter for phrase queries): CJK bigrams plus each run's last character. */
export function indexTerms(text: string): string[] {
  const terms: string[] = [];
  scan(
    text,
    (word) => terms.push(word),
    (run) => {
      let previous = '';
      for (const char of run) {
        if (previous) terms.push(previous + char);
        previous = char;
      }
      terms.push(previous);
    },
  );
  return terms;
}

type Token = { cjk: true; chars: string[] } | { cjk: false; word: string };

function tokens(text: string): Token[] {
  const found: Token[] = [];
  scan(
    text,
    (word) => found.push({ cjk: false, word }),
    (run) => found.push({ cjk: true, chars: Array.from(run) }),
  );
  return found;
}

const bigrams = (chars: string[]): string[] => chars.slice(1).map((char, i) => chars[i]! + char);

/**
 * One part of a query. A word or a single CJK character matches as a prefix (`manag` finds management, 理 finds
 * 理财); a CJK run of two or more characters is the phrase of its bigrams, i.e. that exact character sequence.
 * `text` is the term as it appears in text folded by foldForMatching.
 */
export type QueryTerm = { kind: 'prefix'; text: string } | { kind: 'phrase'; text: string; parts: string[] };

function termsOf(token: Token, loose: boolean): QueryTerm[] {
  if (!token.cjk) return [{ kind: 'prefix', text: token.word }];
  if (token.chars.length === 1) return [{ kind: 'prefix', text: token.chars[0]! }];
  if (loose) return bigrams(token.chars).map((bigram) => ({ kind: 'phrase', text: bigram, parts: [bigram] }));
  return [{ kind: 'phrase', text: token.chars.join(''), parts: bigrams(token.chars) }];
}

const ACCENTED_LATIN = /[\u00C0-\u024F\u1E00-\u1EFF]/g;

/** Text folded the way index terms are (width, case, Latin accents), for counting query terms in it. */
export function foldForMatching(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(ACCENTED_LATIN, (char) => char.normalize('NFD').replace(/\p{Mn}/gu, ''));
}

/**
 * Distinct query terms of the text, at most `max` (a pasted paragraph must not become a thousand-term query).
 * `loose` cuts CJK runs into their separate bigrams, for matching any part of a question asked in a sentence.
 */
export function queryTerms(text: string, { loose = false, max = 32 } = {}): QueryTerm[] {
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  for (const token of tokens(text)) {
    for (const term of termsOf(token, loose)) {
      const key = term.kind === 'prefix' ? `${term.text}*` : term.text;
      if (seen.has(key)) continue;
      seen.add(key);
      terms.push(term);
      if (terms.length >= max) return terms;
    }
  }
  return terms;
}
