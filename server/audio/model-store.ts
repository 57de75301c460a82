// Models installed through the API, kept in the storage under models/<name> (a laptop: DATA_DIR/models, exactly as
// before; central nodes: the bucket, so every node lists the same models). What was found in a model when it was
// stored (sha256, the shelf's description) is kept in stored_models, valid while the object's size and ETag stay, so
// a node lists and describes a model without fetching it. A node that runs one reads it in place (folder storage) or
// from its cache (server/storage/object-cache.ts: DATA_DIR/cache/models/<sha256><ext>, fetched at the first run).
import path from 'node:path';
import type { Db } from '../db/knex.js';
import { now } from '../db/time.js';
import { parseJson, toNumber } from '../db/rows.js';
import { keys, ObjectCache, type ObjectInfo, type Storage } from '../storage/index.js';

interface StoredModelRow {
  storage_key: string;
  size: number | string;
  etag: string;
  sha256: string;
  description: string | null;
}

export interface StoredModel {
  name: string;
  key: string;
  size: number;
  etag: string;
  mtimeMs: number;
  /** From the model's row, when the row matches the object (same size and ETag). */
  sha256?: string;
  description?: unknown;
  /** The file on this node: the object's own file (folder storage) or the cache's copy; undefined when not here. */
  path?: string;
}

export class ModelStore {
  readonly cache: ObjectCache;

  constructor(
    private readonly db: Db,
    readonly storage: Storage,
    dataDir: string,
  ) {
    this.cache = new ObjectCache(storage, path.join(dataDir, 'cache', 'models'));
  }

  /** Every stored model whose name matches the pattern. */
  async list(pattern: RegExp): Promise<StoredModel[]> {
    const objects: ObjectInfo[] = [];
    for await (const object of this.storage.list(keys.modelsPrefix)) if (pattern.test(object.key.slice(keys.modelsPrefix.length))) objects.push(object);
    if (!objects.length) return [];
    const rows: StoredModelRow[] = await this.db('stored_models').whereIn('storage_key', objects.map((o) => o.key));
    const byKey = new Map(rows.map((row) => [row.storage_key, row]));
    return Promise.all(
      objects.map(async (object) => {
        const row = byKey.get(object.key);
        const valid = row && toNumber(row.size) === object.size && row.etag === object.etag ? row : undefined;
        return {
          name: object.key.slice(keys.modelsPrefix.length),
          key: object.key,
          size: object.size,
          etag: object.etag,
          mtimeMs: object.mtime.getTime(),
          sha256: valid?.sha256,
          description: valid?.description ? parseJson<unknown>(valid.description, undefined) : undefined,
          path: await this.cache.present(object.key, valid?.sha256),
        };
      }),
    );
  }

  async exists(name: string): Promise<boolean> {
    return (await this.storage.stat(keys.model(name))) !== undefined;
  }

  /** The model's file on this node, fetched into the cache first when needed; records the sha256 found on the way. */
  async fileOf(model: StoredModel): Promise<{ file: string; sha256: string | undefined }> {
    const { file, sha256 } = await this.cache.file(model.key, model.sha256);
    if (sha256 && !model.sha256) await this.record(model.key, model, sha256, undefined);
    return { file, sha256: sha256 ?? model.sha256 };
  }

  /** Stores a checked model file under its name (moving it when it is a file of the same folder storage). */
  async install(name: string, file: string, sha256: string, description: unknown): Promise<void> {
    const info = await this.storage.putFile(keys.model(name), file, { move: true });
    await this.record(info.key, info, sha256, description);
  }

  async record(key: string, object: { size: number; etag: string }, sha256: string, description: unknown): Promise<void> {
    const row = { storage_key: key, size: object.size, etag: object.etag, sha256, description: description === undefined ? null : JSON.stringify(description), recorded_at: now() };
    const merge = description === undefined ? ['size', 'etag', 'sha256', 'recorded_at'] : ['size', 'etag', 'sha256', 'description', 'recorded_at'];
    await this.db('stored_models').insert(row).onConflict('storage_key').merge(merge);
  }

  /** Forgets what was found in the model (verify hashes and reads it again). */
  async forget(model: StoredModel): Promise<void> {
    await this.db('stored_models').where({ storage_key: model.key }).delete();
  }

  async remove(model: StoredModel): Promise<void> {
    await this.storage.delete(model.key);
    await this.forget(model);
    await this.cache.evict(model.key, model.sha256);
  }
}
