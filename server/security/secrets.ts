// The per-install secrets: the JWT key, the key of signed file URLs and the ed25519 key that signs knowledge packs.
// Each is taken from its environment variable when set (JWT_SECRET, URL_SIGNING_SECRET, PACK_SIGNING_KEY), else
// generated once and kept by a SecretStore: DATA_DIR on the laptop (as always), the database on PostgreSQL, where
// every node of a cluster must sign and verify with the same keys. Generation on PostgreSQL runs under the
// start-up lock (db/startup-lock.ts) and is an insert that keeps the first value anyway.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { AppConfig } from '../config.js';
import { isPostgres } from '../db/knex.js';
import { mkdirPrivateSync, PRIVATE_FILE_MODE } from '../data-dir.js';
import { packSignerFromPem, type PackSigner } from '../knowledge-packs/signing.js';

export type SecretName = 'jwt_secret' | 'url_signing_secret' | 'pack_signing_key';

export interface SecretStore {
  /** The stored secret, or `generate()`'s value stored now; every caller (every node) gets the same one. */
  get(name: SecretName, generate: () => string): Promise<string>;
}

export interface InstallSecrets {
  jwtSecret: string;
  urlSigningSecret: string;
  packSigner: PackSigner;
}

/** DATA_DIR/secrets.json (owner-only); the pack key stays in pack-signing-key.pem, where installs have it. */
export class FileSecretStore implements SecretStore {
  constructor(private readonly dataDir: string) {}

  async get(name: SecretName, generate: () => string): Promise<string> {
    mkdirPrivateSync(this.dataDir);
    if (name === 'pack_signing_key') return this.getFile(path.join(this.dataDir, 'pack-signing-key.pem'), generate);
    const file = path.join(this.dataDir, 'secrets.json');
    const secrets: Record<string, string> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    if (!secrets[name]) {
      secrets[name] = generate();
      fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: PRIVATE_FILE_MODE });
    }
    return secrets[name]!;
  }

  private getFile(file: string, generate: () => string): string {
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
    const value = generate();
    fs.writeFileSync(file, value, { mode: PRIVATE_FILE_MODE });
    return value;
  }
}

/** The install_secrets table (migration 018): the first value inserted wins, whichever node inserted it. */
export class DatabaseSecretStore implements SecretStore {
  constructor(private readonly db: Knex) {}

  async get(name: SecretName, generate: () => string): Promise<string> {
    const stored = await this.db('install_secrets').where({ name }).first('value');
    if (stored) return String(stored.value);
    await this.db('install_secrets').insert({ name, value: generate(), created_at: new Date().toISOString() }).onConflict('name').ignore();
    return String((await this.db('install_secrets').where({ name }).first('value')).value);
  }
}

/** One store per deployment kind: the laptop's folder, or the database a cluster shares. */
export const secretStoreFor = (db: Knex, dataDir: string): SecretStore => (isPostgres(db) ? new DatabaseSecretStore(db) : new FileSecretStore(dataDir));

const randomSecret = () => crypto.randomBytes(48).toString('base64url');
const newPackKey = () => crypto.generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

/** The install's secrets: the environment's where given, the store's otherwise. */
export async function loadInstallSecrets(store: SecretStore, config: Pick<AppConfig, 'jwtSecret' | 'urlSigningSecret' | 'packSigningKey'>): Promise<InstallSecrets> {
  return {
    jwtSecret: config.jwtSecret ?? (await store.get('jwt_secret', randomSecret)),
    urlSigningSecret: config.urlSigningSecret ?? (await store.get('url_signing_secret', randomSecret)),
    packSigner: packSignerFromPem(config.packSigningKey ?? (await store.get('pack_signing_key', newPackKey))),
  };
}
