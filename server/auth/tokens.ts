import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type { JwtPayload } from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import type { Role } from '../../contract/users.js';

// jsonwebtoken (with semver and jws, some 35 ms of module loading) is loaded on the first token signed or verified.
let library: typeof import('jsonwebtoken') | undefined;
const jwt = () => (library ??= createRequire(import.meta.url)('jsonwebtoken') as typeof import('jsonwebtoken'));

// jsonwebtoken given a string first tries it as a PEM public key and catches the failure, which costs ~0.3 ms
// per call; a ready KeyObject skips that.
// Each secret also gets a short number that stands for it in the cache keys below.
const keys = new Map<string, { key: crypto.KeyObject; id: number }>();
function keyFor(secret: string): { key: crypto.KeyObject; id: number } {
  let entry = keys.get(secret);
  if (!entry) keys.set(secret, (entry = { key: crypto.createSecretKey(Buffer.from(secret, 'utf8')), id: keys.size + 1 }));
  return entry;
}

export function signToken(secret: string, userId: number, role: Role, expiresInSeconds: number): string {
  return jwt().sign({ role }, keyFor(secret).key, { algorithm: 'HS256', subject: String(userId), expiresIn: expiresInSeconds });
}

// Tokens already verified, with their subject and expiry: a client sends the same token on every request, and
// the HMAC check is the largest fixed cost of an authenticated request. Keyed by secret and token together, and
// bounded by bytes (a token is some 200 characters): about 2,000 clients' tokens.
const verified = new LRUCache<string, { id: number; expiresAt: number }>({ maxSize: 1024 * 1024, sizeCalculation: (_value, key) => 96 + 2 * key.length });

/** The user id of a valid, unexpired token signed with our secret; undefined for anything else. */
export function verifyToken(secret: string, token: string): number | undefined {
  const { key, id: secretId } = keyFor(secret);
  const cacheKey = `${secretId}:${token}`;
  const known = verified.get(cacheKey);
  if (known) {
    if (Date.now() < known.expiresAt) return known.id;
    verified.delete(cacheKey);
    return undefined;
  }
  try {
    const claims = jwt().verify(token, key, { algorithms: ['HS256'] }) as JwtPayload;
    const id = Number(claims.sub);
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    if (claims.exp) verified.set(cacheKey, { id, expiresAt: claims.exp * 1000 });
    return id;
  } catch {
    return undefined;
  }
}
