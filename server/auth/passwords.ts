import crypto from 'node:crypto';
import argon2 from 'argon2';
import pLimit from 'p-limit';

// argon2id at OWASP's m=46 MiB, t=1, p=1 profile (as strong as its 19 MiB, t=2 one, and as quick). The block is above
// glibc's largest dynamic mmap threshold (32 MiB), so every hash maps it and gives it back when done; a 19 MiB block
// is carved out of the calling thread's malloc arena instead and stays there, up to 19 MiB held for good per libuv
// thread (~76 MB of resident memory after a burst of logins).
const options = { type: argon2.argon2id, memoryCost: 47104, timeCost: 1, parallelism: 1 } as const;

// Hashes run on libuv's thread pool, which SQLite and file I/O share: capping them at half the pool keeps a
// burst of logins from starving every other request.
const hashing = pLimit(Math.max(1, Math.floor(Number(process.env.UV_THREADPOOL_SIZE || 4) / 2)));

export const hashPassword = (password: string): Promise<string> => hashing(() => argon2.hash(password, options));

// A generated initial password (a bulk import's: 72 random bits, changed at first sign-in) is stored as a salted
// SHA-256, not argon2: stretching guards guessable passwords, and 2^72 guesses stay out of reach without it, while
// argon2 would cost ~265 ms per user of an import (docs/api/imports.md).
const INITIAL = '$initial-sha256$';

const initialDigest = (salt: Buffer, password: string) => crypto.createHash('sha256').update(salt).update(password, 'utf8').digest();

/** The stored form of a generated random initial password (never of a password a person chose). */
export function hashInitialPassword(password: string): string {
  const salt = crypto.randomBytes(16);
  return `${INITIAL}${salt.toString('base64url')}$${initialDigest(salt, password).toString('base64url')}`;
}

function verifyInitial(hash: string, password: string): boolean {
  const [salt, digest] = hash.slice(INITIAL.length).split('$');
  if (!salt || !digest) return false;
  const expected = Buffer.from(digest, 'base64url');
  const actual = initialDigest(Buffer.from(salt, 'base64url'), password);
  return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  if (hash.startsWith(INITIAL)) return verifyInitial(hash, password);
  try {
    return await hashing(() => argon2.verify(hash, password));
  } catch {
    return false;
  }
}

/** A hash made with other parameters (an earlier profile): worth replacing once the password is known to be right. */
export function needsRehash(hash: string): boolean {
  if (hash.startsWith(INITIAL)) return true;
  try {
    return argon2.needsRehash(hash, options);
  } catch {
    return false;
  }
}
