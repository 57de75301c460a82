// Signed links to an inspection's call audio (an <audio> element cannot send the Bearer header): the token names the
// inspection and the reader, who is read again and checked again when the link is used, as for coaching reports.
import { UrlSigner } from '../http/url-signer.js';

export const INSPECTION_AUDIO_TTL_SECONDS = 2 * 60 * 60;

export interface InspectionLink {
  url: string;
  expires_at: string;
}

export class InspectionLinks {
  private readonly signer: UrlSigner;

  constructor(jwtSecret: string) {
    this.signer = new UrlSigner(jwtSecret, 'trainbench compliance recording url v1', INSPECTION_AUDIO_TTL_SECONDS);
  }

  sign(inspectionId: number, readerId: number, nowMs = Date.now()): InspectionLink {
    const { token, expiresAt } = this.signer.sign(`${inspectionId}.${readerId}`, nowMs);
    return { url: `/api/compliance/inspections/${inspectionId}/recording?token=${readerId}.${token}`, expires_at: expiresAt };
  }

  check(inspectionId: number, token: string, nowMs = Date.now()): { readerId: number } | { refused: 'invalid' | 'expired' } {
    const match = /^(\d{1,10})\.(.*)$/.exec(token);
    if (!match) return { refused: 'invalid' };
    const readerId = Number(match[1]);
    const verdict = this.signer.check(`${inspectionId}.${readerId}`, match[2]!, nowMs);
    return verdict === 'valid' ? { readerId } : { refused: verdict };
  }
}
