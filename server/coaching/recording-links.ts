// Signed links to a report's call audio: an <audio> element cannot send the Bearer header, so the URL carries a
// short-lived token, an HMAC over (report, reader, expiry) keyed from the install's JWT secret (derived, so it can
// never pass as a JWT or a media file token). The reader is named in the token so that, when the link is used, the
// reader is read again and the rules checked again: a link handed to an admin stops working the moment the admin
// listen parameter is turned off, or the account is disabled.
import crypto from 'node:crypto';

export const RECORDING_TOKEN_TTL_SECONDS = 2 * 60 * 60;

export interface RecordingLink {
  url: string;
  expires_at: string;
}

export class RecordingLinks {
  private readonly key: Buffer;

  constructor(jwtSecret: string) {
    this.key = crypto.createHmac('sha256', jwtSecret).update('trainbench coaching recording url v1').digest();
  }

  private mac(reportId: number, readerId: number, expires: number): string {
    return crypto.createHmac('sha256', this.key).update(`${reportId}.${readerId}.${expires}`).digest('base64url');
  }

  sign(reportId: number, readerId: number, nowMs = Date.now()): RecordingLink {
    const expires = Math.floor(nowMs / 1000) + RECORDING_TOKEN_TTL_SECONDS;
    const token = `${readerId}.${expires}.${this.mac(reportId, readerId, expires)}`;
    return { url: `/api/coaching/reports/${reportId}/recording?token=${token}`, expires_at: new Date(expires * 1000).toISOString() };
  }

  /** The reader the token was signed for, or why it is refused. */
  check(reportId: number, token: string, nowMs = Date.now()): { readerId: number } | { refused: 'invalid' | 'expired' } {
    const match = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return { refused: 'invalid' };
    const readerId = Number(match[1]);
    const expires = Number(match[2]);
    const expected = Buffer.from(this.mac(reportId, readerId, expires));
    if (!crypto.timingSafeEqual(expected, Buffer.from(match[3]!))) return { refused: 'invalid' };
    return expires * 1000 < nowMs ? { refused: 'expired' } : { readerId };
  }
}

/** The link that starts playing at a segment (a media fragment, honoured by browsers' audio players). */
export const atTime = (link: RecordingLink, start: number, end: number) => `${link.url}#t=${start},${end}`;
