// The storage a server uses: one instance per app, built from its configuration and handed to the domains in Deps.
import { KnowledgeFolderStorage } from './knowledge-folder.js';
import { keys } from './keys.js';
import { LocalStorage } from './local.js';
import { PrefixedStorage } from './prefixed.js';
import { S3Storage } from './s3.js';
import type { StorageSettings } from './settings.js';
import type { Storage } from './storage.js';

export function createStorage(settings: StorageSettings, dataDir: string): Storage {
  return settings.kind === 's3' ? new S3Storage(settings) : new LocalStorage(dataDir);
}

/**
 * The knowledge sources' storage: locally the knowledge folder itself (KNOWLEDGE_DIR, where admins drop files), on S3
 * the bucket's `knowledge/` prefix, seen through the main storage (closing that one closes both).
 */
export function createKnowledgeStorage(main: Storage, knowledgeDir: string): Storage {
  return main.kind === 's3' ? new PrefixedStorage(main, keys.knowledgePrefix) : new KnowledgeFolderStorage(knowledgeDir);
}

export { LocalStorage } from './local.js';
export { S3Storage } from './s3.js';
export { PrefixedStorage } from './prefixed.js';
export { KnowledgeFolderStorage } from './knowledge-folder.js';
export * from './storage.js';
export * from './keys.js';
export { sha256OfFile, sha256OfObject, sha256OfStream, sha256Tap } from './sha256.js';
export { ObjectCache } from './object-cache.js';
