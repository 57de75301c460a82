// Every environment variable is parsed by one schema at start (server/config.ts): a bad value stops `npm run server`
// with a non-zero exit and a message naming the variable, before anything is opened or written.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { usingPostgres } from '../support/server.js';
import { startCli, stopCli } from '../support/cli.js';
import { configFromEnv, ConfigError } from '../../server/config.js';

describe('configuration from the environment', { skip: usingPostgres && 'the environment is parsed before any database is opened: checked once, on SQLite' }, () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });
  const freshDir = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-config-'));
    dirs.push(dir);
    return dir;
  };

  for (const [name, value] of [
    ['SYNC_INTERVAL_SECONDS', 'abc'],
    ['SYNC_INTERVAL_SECONDS', '0'],
  ] as const) {
    test(`${name}=${value} stops the start with a message naming ${name}`, async () => {
      const dataDir = await freshDir();
      const failed = await startCli({ DATA_DIR: dataDir, PORT: '0', KNOWLEDGE_DIR: path.join(dataDir, 'k'), [name]: value }).then(
        async (started) => (await stopCli(started.child), undefined),
        (err: Error) => err.message,
      );
      assert.ok(failed, 'the server did not start');
      assert.match(failed, /server exited with [1-9]/);
      assert.match(failed, new RegExp(`invalid configuration: .*${name}`));
      assert.deepEqual(await fs.readdir(dataDir), [], 'nothing was written');
    });
  }

  test('each bad value is named with what it must be', () => {
    for (const [name, value, must] of [
      ['PORT', '70000', 'must be at most 65535'],
      ['TRUST_PROXY', 'yes', 'must be 1 or true'],
      ['DATABASE_URL', 'mysql://localhost/x', 'must be a postgres:// URL'],
      ['STORAGE', 'ftp', 'must be local or s3'],
      ['S3_ENDPOINT', 'minio:9000', 'must be an http(s) URL'],
      ['SHUTDOWN_GRACE_SECONDS', '-1', 'must be a whole number'],
    ] as const) {
      assert.throws(() => configFromEnv({ [name]: value }), (err: Error) => (err instanceof ConfigError && err.message.includes(`${name} ${must}`)) || assert.fail(`${name}: ${err.message}`));
    }
  });

  test('STORAGE=s3 needs S3_BUCKET; the storage variables are parsed with the rest', () => {
    assert.throws(() => configFromEnv({ STORAGE: 's3' }), (err: Error) => err instanceof ConfigError && /S3_BUCKET is required when STORAGE=s3/.test(err.message));
    const config = configFromEnv({ STORAGE: 's3', S3_BUCKET: 'trainbench-files', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: '1' });
    assert.deepEqual(config.storage, { kind: 's3', bucket: 'trainbench-files', endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', forcePathStyle: true });
    assert.deepEqual(configFromEnv({}).storage, { kind: 'local' });
  });

  test('empty variables are unset ones; a secret is never echoed back in the message', () => {
    const config = configFromEnv({ PORT: '', SYNC_INTERVAL_SECONDS: '', TRUST_PROXY: '' });
    assert.equal(config.port, 3210);
    assert.equal(config.syncIntervalSeconds, undefined);
    assert.equal(config.trustProxy, undefined);
    assert.throws(() => configFromEnv({ JWT_SECRET: 'short-s3cr3t' }), (err: Error) => /JWT_SECRET/.test(err.message) && !err.message.includes('short-s3cr3t'));
    assert.equal(configFromEnv({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.equal(configFromEnv({ SYNC_INTERVAL_SECONDS: '60' }).syncIntervalSeconds, 60);
  });
});
