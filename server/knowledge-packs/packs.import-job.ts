// Pack import as a job of the job queue (server/jobs/): one import at a time in the whole cluster (two placing the
// same files at once moved each other's files away), run on whichever node claims it. The uploaded pack goes to
// storage first, so that node can read it. An import is one transaction plus files placed all or nothing, and
// importing the same pack again changes nothing: a run taken up after a node died cannot import twice.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { User } from '../../contract/users.js';
import type { PackImportResult } from '../../contract/knowledge-packs.js';
import type { JobQueue } from '../jobs/queue.js';
import { keys, type Storage } from '../storage/index.js';
import { importPack } from './packs.import.js';
import { newWorkFolder, removeFolder, type PackDirs } from './packs.storage.js';

const JOB = 'knowledge-packs.import';
const RETRY_LIMIT = 2;

interface ImportJob {
  upload: string;
  admin: User;
}

export interface ImportJobDeps {
  db: Knex;
  knowledgeStorage: Storage;
  storage: Storage;
  dirs: PackDirs;
  jobs: JobQueue;
  leaseSeconds: number;
}

export type ImportOutcome = { result: PackImportResult; changed: boolean };

/** Registers the kind; the returned function imports the uploaded pack file and resolves with the import's result. */
export function importJobs({ db, knowledgeStorage, storage, dirs, jobs, leaseSeconds }: ImportJobDeps): (packFile: string, admin: User, signal: AbortSignal) => Promise<ImportOutcome> {
  jobs.register<ImportJob, ImportOutcome>({
    name: JOB,
    retryLimit: RETRY_LIMIT,
    leaseSeconds,
    oneAtATime: true,
    run: async ({ upload, admin }) => {
      const work = await newWorkFolder(dirs);
      try {
        return await storage.withLocalCopy(keys.packUpload(upload), (file) => importPack({ db, knowledgeStorage, storage }, file, work, admin));
      } finally {
        await removeFolder(work);
      }
    },
  });
  return async (packFile, admin, signal) => {
    const upload = crypto.randomUUID();
    await storage.putFile(keys.packUpload(upload), packFile, { move: true, contentType: 'application/gzip' });
    try {
      return await jobs.run<ImportJob, ImportOutcome>(JOB, upload, { upload, admin }, { signal });
    } finally {
      await storage.delete(keys.packUpload(upload));
    }
  };
}
