// Secrets handed to devices: enrolment tokens and device credentials. High-entropy random strings, so a sha256 is
// what is kept (a slow password hash adds nothing against guessing 256 bits, and costs on every sync request).
import crypto from 'node:crypto';

export const ENROLMENT_PREFIX = 'tbe_';
export const CREDENTIAL_PREFIX = 'tbd_';

export const newSecret = (prefix: string): string => prefix + crypto.randomBytes(32).toString('base64url');

export const secretHash = (secret: string): string => crypto.createHash('sha256').update(secret, 'utf8').digest('hex');
