// What the media domain works with: the storage (where media live), the local folders of requests in progress and
// the chunk store of chunked uploads. Built once per app from Deps; other domains (models, packs, sync) use it too.
import type { Storage } from '../storage/index.js';
import { chunkStoreFor, type ChunkStore } from './media.chunk-store.js';
import { mediaDirs, type MediaDirs } from './media.storage.js';

export interface MediaStore {
  storage: Storage;
  dirs: MediaDirs;
  chunks: ChunkStore;
}

export const mediaStore = (storage: Storage, dataDir: string): MediaStore => ({ storage, dirs: mediaDirs(dataDir), chunks: chunkStoreFor(storage, dataDir) });
