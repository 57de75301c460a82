// The storage a server uses: one instance per app, built from its configuration and handed to the domains in Deps.
import { LocalStorage } from './local.js';
import { S3Storage } from './s3.js';
import type { StorageSettings } from './settings.js';
import type { Storage } from './storage.js';

export function createStorage(settings: StorageSettings, dataDir: string): Storage {
  return settings.kind === 's3' ? new S3Storage(settings) : new LocalStorage(dataDir);
}

export { LocalStorage } from './local.js';
export { S3Storage } from './s3.js';
export * from './storage.js';
export * from './keys.js';
export { sha256OfFile, sha256OfObject, sha256OfStream, sha256Tap } from './sha256.js';
export { ObjectCache } from './object-cache.js';
