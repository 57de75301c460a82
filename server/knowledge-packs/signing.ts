import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { mkdirPrivateSync, PRIVATE_FILE_MODE } from '../data-dir.js';

/** This install's ed25519 key pair for signing knowledge packs; the private key never leaves DATA_DIR. */
export interface PackSigner {
  /** The public key as base64 SPKI DER: what other installs put in trusted_pack_keys. */
  publicKey: string;
  fingerprint: string;
  sign(data: Buffer): string;
}

export const fingerprintOf = (publicKey: string): string =>
  crypto.createHash('sha256').update(Buffer.from(publicKey, 'base64')).digest('hex').slice(0, 32);

/** A signer from an ed25519 private key in PKCS#8 PEM (server/security/secrets.ts keeps the install's). */
export function packSignerFromPem(pem: string): PackSigner {
  const privateKey = crypto.createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the pack signing key must be an ed25519 key');
  const publicKey = (crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'der' }) as Buffer).toString('base64');
  return {
    publicKey,
    fingerprint: fingerprintOf(publicKey),
    sign: (data) => crypto.sign(null, data, privateKey).toString('base64'),
  };
}

/** A key pair kept in dir/pack-signing-key.pem (tests sign packs as another install with it). */
export function installSigner(dataDir: string): PackSigner {
  const file = path.join(dataDir, 'pack-signing-key.pem');
  if (!fs.existsSync(file)) {
    mkdirPrivateSync(dataDir);
    fs.writeFileSync(file, crypto.generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: PRIVATE_FILE_MODE });
  }
  return packSignerFromPem(fs.readFileSync(file, 'utf8'));
}

/** True only for a well-formed ed25519 key whose signature over data verifies. */
export function verifySignature(publicKey: string, data: Buffer, signature: string): boolean {
  try {
    const key = crypto.createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return crypto.verify(null, data, key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** A trusted_pack_keys entry may be the full public key or its fingerprint. */
export const isTrusted = (publicKey: string, trusted: string[]): boolean =>
  trusted.some((entry) => entry === publicKey || entry.toLowerCase() === fingerprintOf(publicKey));
