import argon2 from 'argon2';
import pLimit from 'p-limit';

// argon2id at OWASP's minimum profile: strong, and quick enough for a modest laptop.
const options = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

// Hashes run on libuv's thread pool, which SQLite and file I/O share: capping them at half the pool keeps a
// burst of logins from starving every other request.
const hashing = pLimit(Math.max(1, Math.floor(Number(process.env.UV_THREADPOOL_SIZE || 4) / 2)));

export const hashPassword = (password: string): Promise<string> => hashing(() => argon2.hash(password, options));

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await hashing(() => argon2.verify(hash, password));
  } catch {
    return false;
  }
}
