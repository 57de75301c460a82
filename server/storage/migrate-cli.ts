// `npm run storage:migrate [-- --dry-run]`: copies DATA_DIR's user files into the bucket named by STORAGE=s3 and
// S3_* (docs/storage.md, "Moving a DATA_DIR into the bucket"); with KNOWLEDGE_DIR set, that folder's knowledge sources
// too, into the bucket's knowledge/ prefix. Exit code 0 when everything is in the bucket.
import os from 'node:os';
import path from 'node:path';
import { LocalStorage } from './local.js';
import { createKnowledgeStorage, createStorage, KnowledgeFolderStorage } from './index.js';
import { migrateToStorage } from './migrate.js';
import { storageSettingsFromEnv } from './settings.js';

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--dry-run');
if (unknown.length) {
  console.error(`Unknown option(s): ${unknown.join(' ')}\nUsage: npm run storage:migrate [-- --dry-run]`);
  process.exit(2);
}
const dryRun = args.includes('--dry-run');

try {
  const settings = storageSettingsFromEnv(process.env);
  if (settings.kind !== 's3') throw new Error('Set STORAGE=s3 and S3_BUCKET (with S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE as the store needs) to name the bucket to copy into');
  const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(os.homedir(), '.trainbench'));
  const source = new LocalStorage(dataDir);
  const target = createStorage(settings, dataDir);
  try {
    await target.check();
    console.log(`${dryRun ? 'Dry run: ' : ''}copying user files from ${dataDir} into ${target.describe}`);
    const report = await migrateToStorage(source, target, { dryRun, log: (line) => console.log(line) });
    const knowledgeDir = process.env.KNOWLEDGE_DIR ? path.resolve(process.env.KNOWLEDGE_DIR) : undefined;
    if (knowledgeDir) {
      console.log(`${dryRun ? 'Dry run: ' : ''}copying knowledge sources from ${knowledgeDir} into ${target.describe} under knowledge/`);
      const knowledge = await migrateToStorage(new KnowledgeFolderStorage(knowledgeDir), createKnowledgeStorage(target, knowledgeDir), { dryRun, log: (line) => console.log(`knowledge: ${line}`), prefixes: [''] });
      report.copied += knowledge.copied;
      report.copiedBytes += knowledge.copiedBytes;
      report.skipped += knowledge.skipped;
      report.failed.push(...knowledge.failed);
    }
    const mb = (report.copiedBytes / 1024 / 1024).toFixed(1);
    console.log(`${dryRun ? 'would copy' : 'copied'} ${report.copied} file(s), ${mb} MB; ${report.skipped} already in the bucket; ${report.failed.length} failed`);
    process.exitCode = report.failed.length ? 1 : 0;
  } finally {
    await target.close();
  }
} catch (err) {
  console.error(`storage:migrate: ${(err as Error).message ?? String(err)}`);
  process.exitCode = 1;
}
