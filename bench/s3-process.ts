// An S3-compatible server (s3rver, tests/support/s3.ts) in a process of its own for the benches, so that neither the
// server under test nor the bench's own client shares its event loop. Prints `s3 <json>` once listening.
import { startS3 } from '../tests/support/s3.js';

const s3 = await startS3({ bucket: 'trainbench-bench' });
process.stdout.write(`s3 ${JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket, env: s3.env })}\n`);
const stop = () => void s3.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
