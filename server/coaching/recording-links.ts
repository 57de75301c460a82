// Signed links to a report's call audio: an <audio> element cannot send the Bearer header, so the URL carries a
// short-lived token, an HMAC over (report, reader, expiry) keyed from the install's JWT secret (derived, so it can
// never pass as a JWT or a media file token). The reader is named in the token so that, when the link is used, the
// reader is read again and the rules checked again: a link handed to an admin stops working the moment the admin
// listen parameter is turned off, or the account is disabled.
import { UrlSigner } from '../http/url-signer.js';

export const RECORDING_TOKEN_TTL_SECONDS = 2 * 60 * 60;

export interface RecordingLink {
  url: string;
  expires_at: string;
}

/** The token is `<reader>.<expiry>.<mac>`, signed over (report, reader) by http/url-signer.ts. */
export class RecordingLinks {
  private readonly signer: UrlSigner;

  constructor(secret: string) {
    this.signer = new UrlSigner(secret, 'trainbench coaching recording url v1', RECORDING_TOKEN_TTL_SECONDS);
  }

  sign(reportId: number, readerId: number, nowMs = Date.now()): RecordingLink {
    const { token, expiresAt } = this.signer.sign(`${reportId}.${readerId}`, nowMs);
    return { url: `/api/coaching/reports/${reportId}/recording?token=${readerId}.${token}`, expires_at: expiresAt };
  }

  /** The reader the token was signed for, or why it is refused. */
  check(reportId: number, token: string, nowMs = Date.now()): { readerId: number } | { refused: 'invalid' | 'expired' } {
    const match = /^(\d{1,10})\.(.*)$/.exec(token);
    if (!match) return { refused: 'invalid' };
    const readerId = Number(match[1]);
    const verdict = this.signer.check(`${reportId}.${readerId}`, match[2]!, nowMs);
    return verdict === 'valid' ? { readerId } : { refused: verdict };
  }
}

/** The link that starts playing at a segment (a media fragment, honoured by browsers' audio players). */
export const atTime = (link: RecordingLink, start: number, end: number) => `${link.url}#t=${start},${end}`;
