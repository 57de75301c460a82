// One normal form for call text and rule phrases alike, so that a phrase matches however the transcript wrote it:
// full-width forms become half-width (NFKC), letters lower case, Chinese numerals Arabic ("三点五" → "3.5", "两分钟"
// → "2分钟", "一百万" → "100万": 万 and 亿 stay units, as in "100万"), spaces and punctuation dropped except the
// clause mark "，" and the sentence mark "。" (a phrase's gap never crosses a sentence, a negation never a clause).
// Pure functions.

const DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };

const NUMERAL = /[零〇一二两三四五六七八九十百千]+(?:点[零〇一二三四五六七八九]+)?/g;

function integerOf(run: string): string {
  if (![...run].some((ch) => ch in UNITS)) return [...run].map((ch) => DIGITS[ch] ?? '').join('');
  let total = 0;
  let current = 0;
  for (const ch of run) {
    if (ch in UNITS) {
      total += (current || 1) * UNITS[ch]!;
      current = 0;
    } else current = DIGITS[ch] ?? 0;
  }
  return String(total + current);
}

/** Chinese numerals to Arabic digits, Arabic left as they are. */
export function arabicNumerals(text: string): string {
  return text.replace(NUMERAL, (run) => {
    const [whole, fraction] = run.split('点');
    return fraction === undefined ? integerOf(whole!) : `${integerOf(whole!) || '0'}.${[...fraction].map((ch) => DIGITS[ch]).join('')}`;
  });
}

export const SENTENCE = '。';
export const CLAUSE = '，';

const SENTENCE_MARKS = /[。．.!！?？;；\n\r]+/g;
const CLAUSE_MARKS = /[，,、:：]+/g;

/** The normal form of a transcript segment or a phrase's literal words. */
export function normalizeText(text: string): string {
  const folded = arabicNumerals(text.normalize('NFKC').toLowerCase())
    // A decimal point between digits is part of the number, not the end of a sentence.
    .replace(/(\d)\.(?=\d)/g, '$1\u0000');
  // Then everything that is neither a letter, a digit, %, a decimal point nor one of the two marks goes.
  return folded.replace(SENTENCE_MARKS, SENTENCE).replace(CLAUSE_MARKS, CLAUSE).replace(/[^\p{L}\p{N}%。，\u0000]/gu, '').replace(/\u0000/g, '.');
}
