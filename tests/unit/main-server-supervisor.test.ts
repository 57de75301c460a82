// The supervisor of the server's own process: with the real server process (main/server-host.ts in a Node child
// process, as `npm start` runs it without Electron and as the fake Electron's utilityProcess does), and with
// scripted processes for the restart budget and the failure paths.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configFromEnv, type AppConfig } from '../../server/config.js';
import type { Logger } from '../../server/log/logger.js';
import { ServerStartError, ServerSupervisor, type CrashReport, type ServerProcess } from '../../main/server-supervisor.js';
import { forkNodeServer } from '../../main/node-server-process.js';
import type { FromServer, ToServer } from '../../main/server-protocol.js';
import type { UpdateStatus } from '../../contract/system.js';
import { ApiClient } from '../support/client.js';

const root = path.resolve(import.meta.dirname, '../..');
const host = path.join(root, 'main/server-host.ts');
const forkHost = () => forkNodeServer(host, { execArgv: ['--import', 'tsx'] });
const ADMIN_PASSWORD = 'supervised-pass-1';

function recordingLog() {
  const lines: string[] = [];
  const log: Logger = { info: (m, ...d) => void lines.push(`INFO ${[m, ...d].join(' ')}`), error: (m, ...d) => void lines.push(`ERROR ${[m, ...d].join(' ')}`) };
  return { lines, log };
}

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});
async function config(overrides: Partial<AppConfig> = {}): Promise<AppConfig> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-supervisor-'));
  dirs.push(dataDir);
  return configFromEnv({ JWT_SECRET: 'x'.repeat(40) }, { dataDir, host: '127.0.0.1', port: 0, adminPassword: ADMIN_PASSWORD, knowledgeDir: path.join(dataDir, 'k'), ...overrides });
}

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 600 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(check(), `timed out waiting for ${what}`);
};

describe('with the real server process', () => {
  test('starts it, answers its requests, reports update status into the API, and stops it cleanly', async () => {
    const { lines, log } = recordingLog();
    const cfg = await config();
    const supervisor = new ServerSupervisor({ fork: forkHost, config: cfg, log });
    const started = await supervisor.start();
    assert.match(started.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(started.recovered, false);
    assert.equal(started.generatedAdminPassword, undefined, 'ADMIN_PASSWORD was given');
    assert.deepEqual(Object.keys(started.about).sort(), ['api_version', 'app_version', 'database', 'decoder']);
    assert.equal(started.about.database.engine, 'SQLite');
    assert.match(started.about.database.schema, /^\d{3}_/);

    const api = new ApiClient(started.url);
    const token = await api.login('admin', ADMIN_PASSWORD);
    assert.equal(await supervisor.request('update-base-url'), '');
    assert.equal((await api.put('/api/system/config', { token, body: { configs: { update_base_url: 'https://updates.example.cn/trainbench' } } })).status, 200);
    assert.equal(await supervisor.request('update-base-url'), 'https://updates.example.cn/trainbench', 'read fresh at every check');

    const status: UpdateStatus = {
      applies: true, reason: null, state: 'downloading', installed_version: '1.3.0', available_version: '1.4.0', downloaded_version: null,
      progress: { percent: 42, transferred: 42, total: 100, bytes_per_second: 10 }, feed_url: 'https://updates.example.cn/trainbench', last_checked_at: null, next_check_at: null, error: null,
    };
    supervisor.reportUpdateStatus(status);
    let seen: UpdateStatus | undefined;
    for (let i = 0; i < 50 && seen?.state !== 'downloading'; i++) seen = (await api.get('/api/system/update-status', { token })).body.data;
    assert.deepEqual(seen, status);

    await supervisor.stop();
    await assert.rejects(fetch(`${started.url}/api/health`), 'nothing listens after stop');
    assert.equal(supervisor.current, null);
    const serverLog = await fs.readFile(path.join(cfg.dataDir, 'logs', 'server.log'), 'utf8');
    assert.match(serverLog, /server stopped cleanly; write-ahead log checkpointed/);
    assert.deepEqual(lines.filter((l) => l.startsWith('ERROR')), []);
  });

  test('a killed server is logged with its last output and restarted on the same port with every committed write', async () => {
    const { lines, log } = recordingLog();
    const crashes: CrashReport[] = [];
    let restarted = 0;
    const cfg = await config();
    const supervisor = new ServerSupervisor({ fork: forkHost, config: cfg, log, restartDelayMs: 0, onCrash: (c) => crashes.push(c), onRestarted: () => restarted++ });
    const started = await supervisor.start();
    const api = new ApiClient(started.url);
    const token = await api.login('admin', ADMIN_PASSWORD);
    for (let i = 0; i < 30; i++) assert.equal((await api.post('/api/system/departments', { token, body: { name: `Kept ${i}` } })).status, 201);

    const pid = (await findServerPid(cfg.dataDir))!;
    process.kill(pid, 'SIGKILL');
    await until(() => restarted === 1, 'the restart');
    assert.equal(crashes.length, 1);
    assert.deepEqual([crashes[0]!.signal, crashes[0]!.restarting], ['SIGKILL', true]);
    assert.match(crashes[0]!.output, /ready on http:\/\/127\.0\.0\.1/, 'the crash report carries the process\'s last output');
    assert.equal(supervisor.current?.url, started.url, 'the window keeps its address');
    assert.equal(supervisor.current?.recovered, true);
    assert.ok(lines.some((l) => /^ERROR the server process stopped unexpectedly \(signal SIGKILL\); restarting it \(restart 1 of at most 3 a minute\)/.test(l)), lines.join('\n'));

    const names = (await api.get('/api/system/departments', { token })).body.data.map((d: { name: string }) => d.name);
    assert.equal(names.filter((n: string) => n.startsWith('Kept ')).length, 30);
    assert.match(await fs.readFile(path.join(cfg.dataDir, 'logs', 'server.log'), 'utf8'), /recovered from an unclean stop/);
    await supervisor.stop();
  });

  test('a server that cannot start rejects with its error code, and its process is ended', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-supervisor-'));
    dirs.push(dir);
    const notAFolder = path.join(dir, 'file');
    await fs.writeFile(notAFolder, 'x');
    const { log } = recordingLog();
    let forks = 0;
    const fork = () => (forks++, forkHost());
    const supervisor = new ServerSupervisor({ fork, config: { ...(await config()), dataDir: notAFolder }, log, restartDelayMs: 0 });
    const err = await supervisor.start().then(() => null, (e: unknown) => e);
    assert.ok(err instanceof ServerStartError);
    assert.match(String(err.code), /^(EEXIST|ENOTDIR)$/);
    await supervisor.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(forks, 1, 'a server that failed to start is not restarted');
  });
});

/** The pid written by the server into its data folder's clean-stop marker. */
async function findServerPid(dataDir: string): Promise<number | undefined> {
  return JSON.parse(await fs.readFile(path.join(dataDir, 'server.running'), 'utf8')).pid;
}

/** A scripted stand-in for the server process: answers `start` as told, exits when told. */
class ScriptedProcess extends EventEmitter implements ServerProcess {
  static alive = 0;
  static maxAlive = 0;
  readonly pid = 1000 + ScriptedProcess.alive;
  received: ToServer[] = [];
  constructor(private readonly answer: (message: ToServer, self: ScriptedProcess) => void) {
    super();
    ScriptedProcess.alive++;
    ScriptedProcess.maxAlive = Math.max(ScriptedProcess.maxAlive, ScriptedProcess.alive);
    setImmediate(() => this.emit('spawn'));
  }
  postMessage(message: ToServer): void {
    this.received.push(message);
    setImmediate(() => this.answer(message, this));
  }
  send(message: FromServer): void {
    this.emit('message', message);
  }
  exit(code: number | null, signal: string | null = null): void {
    ScriptedProcess.alive--;
    setImmediate(() => this.emit('exit', code, signal));
  }
  kill(): boolean {
    this.exit(null, 'SIGTERM');
    return true;
  }
}

const about = { app_version: '1.3.0', api_version: '1.3.0', database: { engine: 'SQLite' as const, version: '3.45.0', schema: '009_x' } };
const healthy = (message: ToServer, p: ScriptedProcess) => {
  if (message.type === 'start') p.send({ type: 'server-started', url: `http://127.0.0.1:${message.config.port || 4321}`, port: message.config.port || 4321, recovered: false, about });
  if (message.type === 'stop') p.exit(0);
};

describe('restart policy (scripted processes)', () => {
  test('restarts at most 3 times a minute, then gives up; never two server processes at once; restarts reuse the port', async () => {
    let clock = 0;
    const forked: ScriptedProcess[] = [];
    const gaveUp: string[] = [];
    const crashes: CrashReport[] = [];
    const { log } = recordingLog();
    ScriptedProcess.maxAlive = ScriptedProcess.alive = 0;
    const supervisor = new ServerSupervisor({
      fork: () => {
        const p = new ScriptedProcess(healthy);
        forked.push(p);
        return p;
      },
      config: await config(),
      log,
      restartDelayMs: 0,
      now: () => clock,
      onCrash: (c) => crashes.push(c),
      onGaveUp: (reason) => gaveUp.push(reason),
    });
    await supervisor.start();
    for (let crash = 1; crash <= 4; crash++) {
      clock += 10_000;
      forked.at(-1)!.exit(1);
      await until(() => crashes.length === crash, `crash ${crash}`);
      if (crash < 4) await until(() => supervisor.current !== null, `restart ${crash}`);
    }
    assert.deepEqual(crashes.map((c) => c.restarting), [true, true, true, false]);
    assert.equal(forked.length, 4, 'the fourth crash within a minute is not restarted');
    assert.deepEqual(gaveUp, ['The local server stopped 4 times within a minute.']);
    assert.equal(ScriptedProcess.maxAlive, 1, 'one server process (one SQLite writer) at any time');
    assert.ok(forked.slice(1).every((p) => (p.received[0] as { config: AppConfig }).config.port === 4321), 'restarts come back on the first port');

    // The user asks to try again: the budget starts over.
    await supervisor.retry();
    assert.equal(forked.length, 5);
    clock += 61_000;
    forked.at(-1)!.exit(1);
    await until(() => crashes.length === 5, 'crash after retry');
    assert.equal(crashes.at(-1)!.restarting, true);
    await until(() => supervisor.current !== null, 'restart after retry');
    await supervisor.stop();
  });

  test('crashes spread over more than a minute are always restarted', async () => {
    let clock = 0;
    const forked: ScriptedProcess[] = [];
    const crashes: CrashReport[] = [];
    const supervisor = new ServerSupervisor({
      fork: () => forked[forked.push(new ScriptedProcess(healthy)) - 1]!,
      config: await config(),
      log: recordingLog().log,
      restartDelayMs: 0,
      now: () => clock,
      onCrash: (c) => crashes.push(c),
    });
    await supervisor.start();
    for (let crash = 1; crash <= 6; crash++) {
      clock += 25_000;
      forked.at(-1)!.exit(null, 'SIGSEGV');
      await until(() => supervisor.current !== null && crashes.length === crash, `restart ${crash}`);
    }
    assert.ok(crashes.every((c) => c.restarting));
    await supervisor.stop();
  });

  test('a server that never says it started is ended after the timeout; one that hangs on stop is ended too', async () => {
    const { lines, log } = recordingLog();
    const silent = new ServerSupervisor({ fork: () => new ScriptedProcess(() => {}), config: await config(), log, startTimeoutMs: 50 });
    await assert.rejects(silent.start(), /did not start within 0.05 s/);

    const stubborn = new ServerSupervisor({
      fork: () => new ScriptedProcess((m, p) => m.type === 'start' && healthy(m, p)),
      config: await config(),
      log,
      stopTimeoutMs: 50,
    });
    await stubborn.start();
    await stubborn.stop();
    assert.ok(lines.some((l) => /did not stop within 0.05 s: ending its process/.test(l)));
  });

  test('requests fail cleanly when the server is gone', async () => {
    const supervisor = new ServerSupervisor({ fork: () => new ScriptedProcess(healthy), config: await config(), log: recordingLog().log });
    await assert.rejects(supervisor.request('update-base-url'), /not running/);
    await supervisor.start();
    const pending = supervisor.request('update-base-url');
    await supervisor.stop();
    await assert.rejects(pending, /exited/);
  });
});
