// Numbers as people say them in calls and write them in product files: "3.5%", "3.5 percent", "百分之三点五",
// "1万元", "90天", "R3", "中风险". Pure functions.

export type Unit = '%' | 'day' | 'month' | 'year' | 'yuan' | '';

export interface Quantity {
  value: number;
  unit: Unit;
  /** Where it is in the text and what was written. */
  at: number;
  text: string;
}

const UNITS: [RegExp, Unit][] = [
  [/^(?:%|％|percent|per cent|个百分点)$/i, '%'],
  [/^(?:天|日|days?)$/i, 'day'],
  [/^(?:个月|月|months?)$/i, 'month'],
  [/^(?:年|years?)$/i, 'year'],
  [/^(?:元|块|yuan|rmb|cny)$/i, 'yuan'],
];

const MULTIPLIERS: Record<string, number> = { 万: 1e4, 千: 1e3, 亿: 1e8, k: 1e3 };

const unitOf = (word: string | undefined): Unit => (word ? (UNITS.find(([re]) => re.test(word))?.[1] ?? '') : '');

const CN_DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** A Chinese numeral such as 三点五, 二十, 一百零五; NaN when it is not one. */
export function chineseNumber(text: string): number {
  const [whole = '', fraction] = text.split('点');
  let total = 0;
  let digit = 0;
  let seen = false;
  for (const ch of whole) {
    if (ch in CN_DIGITS) {
      digit = CN_DIGITS[ch]!;
      seen = true;
    } else if (ch === '十' || ch === '百') {
      // 十 alone is ten; 二十 is two tens.
      total += (seen ? digit : 1) * (ch === '十' ? 10 : 100);
      digit = 0;
      seen = false;
    } else return NaN;
  }
  total += digit;
  if (fraction === undefined) return total;
  let decimals = '';
  for (const ch of fraction) {
    if (!(ch in CN_DIGITS)) return NaN;
    decimals += String(CN_DIGITS[ch]);
  }
  return decimals ? Number(`${total}.${decimals}`) : NaN;
}

const NUMBER = /(\d+(?:,\d{3})*(?:\.\d+)?)\s*(万|千|亿|k(?![a-z]))?\s*(%|％|percent|per cent|个百分点|天|日|days?|个月|月|months?|年|years?|元|块|yuan|rmb|cny)?/gi;
const CN_PERCENT = /百分之([零〇一二两三四五六七八九十百点]+)/g;

/** Every quantity in the text, in order of position. */
export function quantities(text: string): Quantity[] {
  const found: Quantity[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const base = Number(m[1]!.replace(/,/g, ''));
    const multiplier = m[2] ? MULTIPLIERS[m[2].toLowerCase()]! : 1;
    found.push({ value: base * multiplier, unit: unitOf(m[3]), at: m.index, text: m[0].trim() });
  }
  for (const m of text.matchAll(CN_PERCENT)) {
    const value = chineseNumber(m[1]!);
    if (Number.isFinite(value)) found.push({ value, unit: '%', at: m.index, text: m[0] });
  }
  return found.sort((a, b) => a.at - b.at);
}

const RISK_WORDS: [RegExp, number][] = [
  [/中低风险|较低风险/, 2],
  [/中高风险|较高风险/, 4],
  [/低风险/, 1],
  [/中风险|中等风险/, 3],
  [/高风险/, 5],
];

/** Risk levels as R1–R5 (also PR3, "R 3", and the Chinese 低/中低/中/中高/高风险), in order of position. */
export function riskLevels(text: string): Quantity[] {
  const found: Quantity[] = [];
  for (const m of text.matchAll(/\bP?R\s?([1-5])\b/gi)) found.push({ value: Number(m[1]), unit: '', at: m.index, text: m[0] });
  let rest = text;
  for (const [re, level] of RISK_WORDS) {
    for (const m of rest.matchAll(new RegExp(re.source, 'g'))) {
      found.push({ value: level, unit: '', at: m.index, text: m[0] });
      // Blank out what matched so 中低风险 is not read again as 低风险.
      rest = rest.slice(0, m.index) + ' '.repeat(m[0].length) + rest.slice(m.index + m[0].length);
    }
  }
  return found.sort((a, b) => a.at - b.at);
}

export const sameValue = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** Sentences of a text (a segment, a chunk): split after sentence ends and at line breaks. */
export const sentences = (text: string): string[] =>
  text
    .split(/(?<=[.!?。！？；;])\s+|(?<=[。！？；])|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
