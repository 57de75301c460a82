// Short-lived signed URLs for what a browser fetches without the Bearer header (<img>, <video>, <audio>): the token
// is `<expiry>.<HMAC over (subject, expiry)>`, keyed by a key derived from the install's URL signing secret for one purpose,
// so a token of one kind can never pass as another, nor as a JWT.
import crypto from 'node:crypto';

export type TokenCheck = 'valid' | 'invalid' | 'expired';

export class UrlSigner {
  private readonly key: Buffer;

  constructor(
    secret: string,
    purpose: string,
    readonly ttlSeconds: number,
  ) {
    this.key = crypto.createHmac('sha256', secret).update(purpose).digest();
  }

  private mac(subject: string, expires: number): string {
    return crypto.createHmac('sha256', this.key).update(`${subject}.${expires}`).digest('base64url');
  }

  sign(subject: string, nowMs = Date.now()): { token: string; expiresAt: string } {
    const expires = Math.floor(nowMs / 1000) + this.ttlSeconds;
    return { token: `${expires}.${this.mac(subject, expires)}`, expiresAt: new Date(expires * 1000).toISOString() };
  }

  check(subject: string, token: string, nowMs = Date.now()): TokenCheck {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return 'invalid';
    const expires = Number(match[1]);
    if (!crypto.timingSafeEqual(Buffer.from(this.mac(subject, expires)), Buffer.from(match[2]!))) return 'invalid';
    return expires * 1000 < nowMs ? 'expired' : 'valid';
  }
}
