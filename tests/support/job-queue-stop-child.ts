// Run by tests/api/job-queue-stop.test.ts in a process of its own: a pg-boss queue with more workers than
// connections, stopped while their first polls still wait for one. Prints `stopped` when stop() returns; the process
// must then exit by itself (nothing of the queue left running).
import { PgBossJobQueue } from '../../server/jobs/pg-boss.js';

const [url, schema] = process.argv.slice(2) as [string, string];
const queue = new PgBossJobQueue({ url, schema, log: () => undefined });
for (let i = 0; i < 6; i++) queue.register({ name: `test.stop-${i}`, retryLimit: 0, leaseSeconds: 60, concurrency: 3, run: async () => undefined });
await queue.start();
await queue.stop();
console.log('stopped');
