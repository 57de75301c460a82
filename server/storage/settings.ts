// Which storage a process uses, from its environment (docs/storage.md): STORAGE=local (the default: DATA_DIR) or
// STORAGE=s3 with S3_BUCKET, S3_ENDPOINT, S3_REGION and S3_FORCE_PATH_STYLE=1.
import type { S3Settings } from './s3.js';

export type StorageSettings = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

const yes = (value: string | undefined) => value === '1' || value === 'true';

export function storageSettingsFromEnv(env: NodeJS.ProcessEnv): StorageSettings {
  const kind = (env.STORAGE || 'local').toLowerCase();
  if (kind === 'local') return { kind: 'local' };
  if (kind !== 's3') throw new Error(`STORAGE must be local or s3, got ${env.STORAGE}`);
  if (!env.S3_BUCKET) throw new Error('S3_BUCKET must be set when STORAGE=s3');
  if (env.S3_ENDPOINT && !/^https?:\/\//.test(env.S3_ENDPOINT)) throw new Error(`S3_ENDPOINT must be an http(s) URL, got ${env.S3_ENDPOINT}`);
  return { kind: 's3', bucket: env.S3_BUCKET, endpoint: env.S3_ENDPOINT || undefined, region: env.S3_REGION || undefined, forcePathStyle: yes(env.S3_FORCE_PATH_STYLE) };
}
