// One sanitiser for names and labels (users, departments, positions, speaker labels, titles, file names): text that
// is shown on one line must not carry what changes how the line reads. Control characters (NUL included) are
// dropped, line and tab breaks become a space, and zero-width and bidirectional formatting characters are dropped:
// `\u202Evaw.exe` would otherwise display as "exe.wav" and a name could hide another inside it.
import { z } from 'zod';

const BREAKS = /\p{Zs}*[\t\n\v\f\r\u0085\u2028\u2029]+\p{Zs}*/gu;
/** Cc (C0, DEL, C1), soft hyphen, Arabic letter mark, Mongolian vowel separator, zero-width and bidi formatting, BOM. */
const INVISIBLE = /[\p{Cc}\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/gu;

/** The text as it should be shown on one line: breaks as spaces, invisible and direction-changing characters gone. */
export const oneLine = (text: string): string => text.replace(BREAKS, ' ').replace(INVISIBLE, '');

/** True when the text has nothing oneLine would change. */
export const isOneLine = (text: string): boolean => oneLine(text) === text;

/**
 * A name or label field: cleaned by oneLine, then trimmed, then at most `max` characters. Still a ZodString, so
 * `.min(1)` and the like can follow (they see the cleaned text: a name of only invisible characters is empty).
 */
export const nameText = (max: number) => z.string().overwrite(oneLine).trim().max(max);

/** A file name for a download or a stored upload: cleaned the same way; what is left empty becomes `fallback`. */
export function safeFileName(name: string, fallback = 'file'): string {
  const cleaned = oneLine(name).replace(/["\\/]/g, '_').trim();
  return /^\.*$/.test(cleaned) ? fallback : cleaned;
}

/** At most `max` characters (whole code points), with `…` where it was cut: for values echoed back in messages and reports. */
export function clip(text: string, max = 200): string {
  const points = [...text.slice(0, max * 2 + 2)];
  return points.length > max ? `${points.slice(0, max).join('')}…` : text;
}
