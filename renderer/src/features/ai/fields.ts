import { z } from 'zod';

/** The server's key rule (letters, digits, `_`, `-`, `.`; starting with a letter or digit), with its message as a key. */
export const keyField = z
  .string()
  .trim()
  .min(1, 'common.validation.required')
  .max(64, 'ai.tooLong')
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'ai.keyInvalid');
