import argon2 from 'argon2';

// argon2id at OWASP's minimum profile: strong, and quick enough for a modest laptop.
// The hash runs on libuv's thread pool, so logins never block the event loop.
const options = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, options);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
