// One normal form for call text and rule phrases alike, so that a phrase matches however the transcript wrote it:
// full-width forms become half-width (NFKC), letters lower case, Chinese numerals Arabic ("三点五" → "3.5", "两分钟"
// → "2分钟", "一百万" → "100万": 万 and 亿 stay units, as in "100万"), spaces and punctuation dropped except the
// clause mark "，" and the sentence mark "。" (a phrase's gap never crosses a sentence, a negation never a clause).
// Pure functions.

const DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };

const NUMERAL_RUN = '[零〇一二两三四五六七八九十百千]+(?:点[零〇一二三四五六七八九]+)?';
const NUMERAL = new RegExp(NUMERAL_RUN, 'g');

function integerOf(run: string): string {
  let positional = false;
  for (let i = 0; i < run.length; i++) if (UNITS[run[i]!] !== undefined) positional = true;
  if (!positional) {
    // 二零二六 → 2026: digit by digit.
    let digits = '';
    for (let i = 0; i < run.length; i++) digits += DIGITS[run[i]!] ?? '';
    return digits;
  }
  let total = 0;
  let current = 0;
  for (let i = 0; i < run.length; i++) {
    const unit = UNITS[run[i]!];
    if (unit !== undefined) {
      total += (current || 1) * unit;
      current = 0;
    } else current = DIGITS[run[i]!] ?? 0;
  }
  return String(total + current);
}

/** Chinese numerals to Arabic digits, Arabic left as they are. */
export function arabicNumerals(text: string): string {
  return text.replace(NUMERAL, numeralOf);
}

export const SENTENCE = '。';
export const CLAUSE = '，';

// After NFKC (which makes full-width punctuation ASCII) and lower case, one loop over the character codes: a run of
// Chinese numerals becomes its Arabic number; every run of characters that are not kept (anything but Latin letters,
// digits, %, kana, CJK ideographs, Hangul and the separator) becomes a sentence mark, a clause mark, a decimal point
// between digits, or nothing. No regular expression with a callback per match: on a one-hour call (1,500 segments)
// that was most of an inspection's time.
const NUMERAL_CODES = new Set([...'零〇一二两三四五六七八九十百千'].map((ch) => ch.charCodeAt(0)));
const FRACTION_DIGITS = new Set([...'零〇一二三四五六七八九'].map((ch) => ch.charCodeAt(0)));
const POINT = '点'.charCodeAt(0);
const SENTENCE_CODES = new Set([...'。.!?;\n\r'].map((ch) => ch.charCodeAt(0)));
const CLAUSE_CODES = new Set([...'，,、:'].map((ch) => ch.charCodeAt(0)));
const isDigit = (code: number) => code >= 48 && code <= 57;
const isKept = (c: number) =>
  isDigit(c) || (c >= 97 && c <= 122) || c === 37 || c === 1 || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xc0 && c <= 0x24f) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0xac00 && c <= 0xd7af);

function numeralOf(run: string): string {
  // Most runs are one character (一, 五): no parsing.
  if (run.length === 1) return String(DIGITS[run] ?? UNITS[run]);
  const point = run.indexOf('点');
  if (point < 0) return integerOf(run);
  return `${integerOf(run.slice(0, point)) || '0'}.${integerOf(run.slice(point + 1))}`;
}

/** Numerals and marks, in one pass over text already NFKC'd and lower-cased. */
function fold(text: string): string {
  let out = '';
  let from = 0; // start of the kept characters not yet copied
  let mark = 0; // the dropped run being read: 0 nothing, 1 clause, 2 sentence
  const endRun = (at: number) => {
    if (mark) out += mark === 2 ? SENTENCE : CLAUSE;
    mark = 0;
    from = at;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (NUMERAL_CODES.has(c)) {
      if (from < 0) endRun(i);
      out += text.slice(from, i);
      let end = i + 1;
      while (end < text.length && NUMERAL_CODES.has(text.charCodeAt(end))) end++;
      if (text.charCodeAt(end) === POINT && FRACTION_DIGITS.has(text.charCodeAt(end + 1))) {
        end += 2;
        while (end < text.length && FRACTION_DIGITS.has(text.charCodeAt(end))) end++;
      }
      out += numeralOf(text.slice(i, end));
      from = end;
      i = end - 1;
    } else if (isKept(c)) {
      if (from < 0) endRun(i);
    } else if (c === 46 && from >= 0 && isDigit(text.charCodeAt(i - 1)) && isDigit(text.charCodeAt(i + 1))) {
      // A decimal point between digits is part of the number, not the end of a sentence.
    } else {
      if (from >= 0) {
        out += text.slice(from, i);
        from = -1;
      }
      if (SENTENCE_CODES.has(c)) mark = 2;
      else if (mark === 0 && CLAUSE_CODES.has(c)) mark = 1;
    }
  }
  if (from >= 0) out += text.slice(from);
  else if (mark) out += mark === 2 ? SENTENCE : CLAUSE;
  return out;
}

/** Separates texts normalised together (kept as it is); see normalizeAll. */
const SEPARATOR = '\u0001';

/** The normal forms of many texts, in one pass over them all (a one-hour call is 1,500 segments). */
export function normalizeAll(texts: string[]): string[] {
  return normalizeText(texts.map((t) => t.replaceAll(SEPARATOR, ' ')).join(SEPARATOR)).split(SEPARATOR);
}

/** The normal form of a transcript segment or a phrase's literal words. */
export function normalizeText(text: string): string {
  return fold(text.normalize('NFKC').toLowerCase());
}
