// An S3-compatible server on loopback for tests and benches (s3rver: multipart uploads, ranges, path-style
// addressing), in a fresh temporary folder, on a random port, with one bucket. Nothing leaves the machine.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface RunningS3 {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  /** The folder s3rver keeps the bucket in (tests may look at it). */
  directory: string;
  /** The environment a server needs to use this bucket (STORAGE=s3, S3_*, AWS credentials). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver accepts any signature made with these. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export async function startS3({ bucket = 'trainbench-test' }: { bucket?: string } = {}): Promise<RunningS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // The SDK reads credentials from the environment (its default chain); a server started in this process does too.
  process.env.AWS_ACCESS_KEY_ID ??= S3RVER_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= S3RVER_CREDENTIALS.secretAccessKey;
  return {
    endpoint,
    bucket,
    directory,
    env: {
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
