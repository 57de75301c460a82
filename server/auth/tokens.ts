import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
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

/** The user id of a valid, unexpired token signed with our secret; undefined for anything else. */
export function verifyToken(secret: string, token: string): number | undefined {
  try {
    const claims = jwt.verify(token, keyFor(secret), { algorithms: ['HS256'] }) as jwt.JwtPayload;
    const id = Number(claims.sub);
    return Number.isSafeInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}
