import jwt from 'jsonwebtoken';
import type { Role } from '../../contract/users.js';

export interface TokenClaims {
  sub: string;
  role: Role;
}

export function signToken(secret: string, userId: number, role: Role, expiresInSeconds: number): string {
  return jwt.sign({ role }, secret, { algorithm: 'HS256', subject: String(userId), expiresIn: expiresInSeconds });
}

/** The user id of a valid, unexpired token signed with our secret; undefined for anything else. */
export function verifyToken(secret: string, token: string): number | undefined {
  try {
    const claims = jwt.verify(token, secret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    const id = Number(claims.sub);
    return Number.isSafeInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}
