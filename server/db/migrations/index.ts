import type { Knex } from 'knex';
import * as core from './001_core.js';
import * as exams from './002_exams.js';
import * as media from './003_media.js';
import * as workbench from './004_workbench.js';
import * as knowledge from './005_knowledge.js';
import * as ai from './006_ai.js';
import * as audio from './007_audio.js';
import * as builtinSkills from './008_builtin_skills.js';
import * as chunkDurability from './009_chunk_durability.js';
import * as audioJobs from './012_audio_jobs.js';
import * as userLocale from './013_user_locale.js';
import * as sync from './014_sync.js';
import * as coaching from './015_coaching.js';
import * as syncMore from './016_sync_more.js';
import * as cluster from './018_cluster.js';
import * as storage from './017_storage.js';
import * as examIntegrity from './020_exam_integrity.js';
import * as review from './023_review.js';
import * as compliance from './022_compliance.js';
import * as modelStore from './025_model_store.js';
import * as audioJobRuns from './026_audio_job_runs.js';
import * as usernameCaseless from './027_username_caseless.js';
import * as inspectionOnce from './028_inspection_once.js';
import * as reviewPending from './030_review_pending.js';
import * as roleplay from './031_roleplay.js';
import * as assignments from './019_assignments.js';
import * as calls from './021_calls.js';
import * as jobKeys from './024_job_keys.js';
import * as paperAudience from './029_paper_audience.js';
import * as loginPending from './032_login_pending.js';
import * as riskLevelWords from './033_risk_level_words.js';
import * as importJobs from './034_import_jobs.js';

interface Migration {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** Migrations are imported modules rather than files found at run time, so they work from TypeScript, the build and the packaged app alike. */
const migrations: Record<string, Migration> = {
  '001_core': core,
  '002_exams': exams,
  '003_media': media,
  '004_workbench': workbench,
  '005_knowledge': knowledge,
  '006_ai': ai,
  '007_audio': audio,
  '008_builtin_skills': builtinSkills,
  '009_chunk_durability': chunkDurability,
  '012_audio_jobs': audioJobs,
  '013_user_locale': userLocale,
  '014_sync': sync,
  '015_coaching': coaching,
  '016_sync_more': syncMore,
  '018_cluster': cluster,
  '017_storage': storage,
  '020_exam_integrity': examIntegrity,
  '023_review': review,
  '022_compliance': compliance,
  '019_assignments': assignments,
  '021_calls': calls,
  '024_job_keys': jobKeys,
  '025_model_store': modelStore,
  '026_audio_job_runs': audioJobRuns,
  '027_username_caseless': usernameCaseless,
  '028_inspection_once': inspectionOnce,
  '029_paper_audience': paperAudience,
  '030_review_pending': reviewPending,
  '031_roleplay': roleplay,
  '032_login_pending': loginPending,
  '033_risk_level_words': riskLevelWords,
  '034_import_jobs': importJobs,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name]!,
};
