import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import type { Role } from '../../contract/users.js';

// jsonwebtoken given a string first tries it as a PEM public key and catches the failure, which costs ~0.3 ms
// per call; a ready KeyObject skips that.
const keys = new Map<string, crypto.KeyObject>();
function keyFor(secret: string): crypto.KeyObject {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = crypto.createSecretKey(Buffer.from(secret, 'utf8'))));
  return key;
}

export function signToken(secret: string, userId: number, role: Role, expiresInSeconds: number): string {
  return jwt.sign({ role }, keyFor(secret), { algorithm: 'HS256', subject: String(userId), expiresIn: expiresInSeconds });
}

// Tokens already verified, with their subject and expiry: a client sends the same token on every request, and
// the HMAC check is the largest fixed cost of an authenticated request. Keyed by secret and token together.
const verified = new LRUCache<string, { id: number; expiresAt: number }>({ max: 10_000 });

/** The user id of a valid, unexpired token signed with our secret; undefined for anything else. */
export function verifyToken(secret: string, token: string): number | undefined {
  const cacheKey = `${secret}\0${token}`;
  const known = verified.get(cacheKey);
  if (known) {
    if (Date.now() < known.expiresAt) return known.id;
    verified.delete(cacheKey);
    return undefined;
  }
  try {
    const claims = jwt.verify(token, keyFor(secret), { algorithms: ['HS256'] }) as jwt.JwtPayload;
    const id = Number(claims.sub);
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    if (claims.exp) verified.set(cacheKey, { id, expiresAt: claims.exp * 1000 });
    return id;
  } catch {
    return undefined;
  }
}
