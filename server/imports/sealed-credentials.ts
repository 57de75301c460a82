// A finished import job keeps its initial passwords until the admin who started it reads them: sealed with
// AES-256-GCM under a key derived from the install's JWT secret (the same on every node), so the database alone
// never holds a password in clear, and the row is emptied on that first read.
import crypto from 'node:crypto';
import type { InitialCredential } from '../../contract/imports.js';

const INFO = 'trainbench import credentials v1';

const keyOf = (secret: string): Buffer => Buffer.from(crypto.hkdfSync('sha256', secret, Buffer.alloc(0), INFO, 32));

export function sealCredentials(secret: string, credentials: InitialCredential[]): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

export function openCredentials(secret: string, sealed: string): InitialCredential[] {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(secret), iv!);
  decipher.setAuthTag(tag!);
  return JSON.parse(Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8')) as InitialCredential[];
}
