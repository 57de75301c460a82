// What a chosen password must be: at least 8 characters, not the username (in any case), and not on the list of the
// most common passwords (@zxcvbn-ts/language-common, about 49,000 of them), read once on first use. Generated initial
// passwords are random and never checked here.
import { AuthErrorCode } from '../../contract/users.js';
import { AppError } from '../http/errors.js';

export const MIN_PASSWORD_LENGTH = 8;

let common: Promise<Set<string>> | undefined;
const commonPasswords = () =>
  (common ??= import('@zxcvbn-ts/language-common').then((m) => new Set((m.dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()))));

/** Why a password is weak, or null: "too_short", "same_as_username" or "common". */
export async function passwordWeakness(password: string, username: string): Promise<'too_short' | 'same_as_username' | 'common' | null> {
  if ([...password].length < MIN_PASSWORD_LENGTH) return 'too_short';
  const lower = password.toLowerCase();
  if (username && lower === username.trim().toLowerCase()) return 'same_as_username';
  if ((await commonPasswords()).has(lower)) return 'common';
  return null;
}

const MESSAGES = {
  too_short: `The password must be at least ${MIN_PASSWORD_LENGTH} characters`,
  same_as_username: 'The password must not be the username',
  common: 'The password is one of the most common passwords; choose another',
} as const;

/** 400 `auth.weak_password` when the password is weak; `details` names the reason as a field message. */
export async function assertStrongPassword(password: string, username: string): Promise<void> {
  const weakness = await passwordWeakness(password, username);
  if (weakness) throw new AppError(400, AuthErrorCode.weakPassword, MESSAGES[weakness], [{ path: 'password', message: weakness }]);
}
