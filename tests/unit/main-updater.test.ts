// The update decisions (main/updater.ts) against a scripted updater, then end to end through electron-updater's
// own code (generic provider, latest*.yml parsing, download with sha512 verification, its events) against a
// local static server, with only Electron's app and net replaced by Node equivalents.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { DebUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { ElectronHttpExecutor } from 'electron-updater/out/electronHttpExecutor.js';
import { CHECK_INTERVAL_MS, UpdateController, updatesNotApplicable, type AutoUpdaterLike, type UpdaterOptions } from '../../main/updater.js';
import type { UpdateStatus } from '../../contract/system.js';
import type { Logger } from '../../server/log/logger.js';

const FEED = 'https://updates.example.cn/trainbench/';

class FakeUpdater extends EventEmitter implements AutoUpdaterLike {
  logger: unknown = console;
  autoDownload = false;
  autoInstallOnAppQuit = false;
  feeds: string[] = [];
  checks = 0;
  installs: unknown[][] = [];
  constructor(private readonly script: (self: FakeUpdater) => Promise<unknown>) {
    super();
  }
  setFeedURL(options: { provider: 'generic'; url: string }) {
    assert.equal(options.provider, 'generic');
    this.feeds.push(options.url);
  }
  async checkForUpdates() {
    this.checks++;
    await this.script(this);
    return null;
  }
  quitAndInstall(...args: unknown[]) {
    this.installs.push(args);
  }
}

const silentLog: Logger = { info: () => {}, error: () => {} };

function controller(overrides: Partial<UpdaterOptions> & { updater?: () => AutoUpdaterLike }) {
  const published: UpdateStatus[] = [];
  const asked: string[] = [];
  let clock = new Date('2025-03-01T08:00:00.000Z');
  const options: UpdaterOptions = {
    updater: () => new FakeUpdater(async () => {}),
    notApplicableReason: null,
    installedVersion: '1.3.0',
    feedUrl: async () => FEED,
    isOnline: () => true,
    askToRestart: async (version) => (asked.push(version), false),
    publish: (status) => void published.push(status),
    log: silentLog,
    now: () => clock,
    ...overrides,
  };
  const c = new UpdateController(options);
  return { c, published, asked, states: () => published.map((s) => s.state), advance: (ms: number) => (clock = new Date(clock.getTime() + ms)) };
}

describe('decisions', () => {
  test('only an installed build outside tests updates itself, and says why not otherwise', () => {
    assert.equal(updatesNotApplicable(true, {}), null);
    assert.match(String(updatesNotApplicable(false, {})), /runs from source \(npm start\)/);
    assert.match(String(updatesNotApplicable(true, { NODE_ENV: 'test' })), /off under test/);
    assert.match(String(updatesNotApplicable(true, { TRAINBENCH_DISABLE_UPDATES: '1' })), /turned off/);
  });

  test('not applicable: one status saying why, and electron-updater is never created', async () => {
    let built = 0;
    const { c, published } = controller({ notApplicableReason: 'from source', updater: () => (built++, new FakeUpdater(async () => {})) });
    c.start();
    await c.check();
    c.stop();
    assert.equal(built, 0);
    assert.deepEqual(published, [{ ...c.current, applies: false, reason: 'from source', state: 'not-applicable' }]);
  });

  test('no update address set: not configured, nothing asked of the network; a bad stored value is reported', async () => {
    let built = 0;
    const { c, states } = controller({ feedUrl: async () => '', updater: () => (built++, new FakeUpdater(async () => {})) });
    await c.check();
    assert.deepEqual(states(), ['not-configured']);
    assert.equal(built, 0);
    const bad = controller({ feedUrl: async () => 'javascript:alert(1)' });
    await bad.c.check();
    assert.deepEqual([bad.c.current.state, bad.c.current.error], ['not-configured', 'update_base_url is not an http(s) URL: javascript:alert(1)']);
  });

  test('offline: silent (no request), and checked again as soon as the computer is back online', async () => {
    let online = false;
    const updater = new FakeUpdater(async (u) => void u.emit('update-not-available', { version: '1.3.0' }));
    const { c, states } = controller({ isOnline: () => online, updater: () => updater });
    await c.check();
    assert.deepEqual(states(), ['offline']);
    assert.equal(updater.checks, 0);
    await c.tick();
    assert.equal(updater.checks, 0, 'still offline');
    online = true;
    await c.tick();
    assert.deepEqual(states(), ['offline', 'offline', 'checking', 'up-to-date']);
    assert.equal(updater.checks, 1);
  });

  test('up to date: the generic provider on update_base_url, checked again only after 6 hours', async () => {
    const updater = new FakeUpdater(async (u) => void u.emit('update-not-available', { version: '1.3.0' }));
    const { c, states, advance } = controller({ updater: () => updater });
    await c.check();
    assert.deepEqual(states(), ['checking', 'up-to-date']);
    assert.deepEqual(updater.feeds, [FEED]);
    assert.equal(updater.autoDownload, true, 'downloads in the background');
    assert.equal(updater.autoInstallOnAppQuit, true, '"Later" installs at quit');
    assert.equal(c.current.last_checked_at, '2025-03-01T08:00:00.000Z');
    assert.equal(c.current.next_check_at, new Date(Date.parse('2025-03-01T08:00:00.000Z') + CHECK_INTERVAL_MS).toISOString());
    advance(CHECK_INTERVAL_MS - 60_000);
    await c.tick();
    assert.equal(updater.checks, 1, 'not yet due');
    advance(60_000);
    await c.tick();
    assert.equal(updater.checks, 2, 'due after 6 hours');
    assert.deepEqual(updater.feeds, [FEED], 'the same address is not set again');
  });

  test('an admin\'s new address is used at the next check', async () => {
    let url = FEED;
    const updater = new FakeUpdater(async (u) => void u.emit('update-not-available', { version: '1.3.0' }));
    const { c } = controller({ updater: () => updater, feedUrl: async () => url });
    await c.check();
    url = 'http://10.0.0.5/trainbench/';
    await c.check();
    assert.deepEqual(updater.feeds, [FEED, 'http://10.0.0.5/trainbench/']);
    assert.equal(c.current.feed_url, 'http://10.0.0.5/trainbench/');
  });

  test('an update downloads with its progress published, then the user is asked once; "Later" keeps it for the next quit', async () => {
    const updater = new FakeUpdater(async (u) => {
      u.emit('update-available', { version: '1.4.0' });
      u.emit('download-progress', { percent: 33.333, transferred: 1, total: 3, bytesPerSecond: 1000.4 });
      u.emit('update-downloaded', { version: '1.4.0' });
    });
    const { c, published, asked, states } = controller({ updater: () => updater });
    await c.check();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(states(), ['checking', 'downloading', 'downloading', 'downloaded']);
    assert.deepEqual(published[2]!.progress, { percent: 33.3, transferred: 1, total: 3, bytes_per_second: 1000 });
    assert.deepEqual([c.current.available_version, c.current.downloaded_version, c.current.progress], ['1.4.0', '1.4.0', null]);
    assert.deepEqual(asked, ['1.4.0']);
    assert.deepEqual(updater.installs, [], 'no restart without a yes');
    await c.check();
    assert.equal(updater.checks, 1, 'no check while an update waits for the restart');
    assert.equal(c.install(), true, 'the window may still offer "restart now"');
    assert.deepEqual(updater.installs, [[false, true]]);
  });

  test('"Restart now" installs at once', async () => {
    const updater = new FakeUpdater(async (u) => void u.emit('update-downloaded', { version: '1.4.0' }));
    const { c } = controller({ updater: () => updater, askToRestart: async () => true });
    await c.check();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(updater.installs, [[false, true]]);
  });

  test('failures: network errors count as offline, others as errors; one failure emitted and rejected is one status', async () => {
    const dns = Object.assign(new Error('net::ERR_NAME_NOT_RESOLVED'), {});
    const updater = new FakeUpdater(async (u) => {
      u.emit('error', dns);
      throw dns;
    });
    const { c, states } = controller({ updater: () => updater });
    await c.check();
    assert.deepEqual(states(), ['checking', 'offline']);
    assert.equal(c.current.error, 'net::ERR_NAME_NOT_RESOLVED');

    const broken = new FakeUpdater(async () => {
      throw new Error('sha512 checksum mismatch, expected x, got y');
    });
    const other = controller({ updater: () => broken });
    await other.c.check();
    assert.deepEqual(other.states(), ['checking', 'error']);
    assert.equal(other.c.install(), false, 'nothing to install');
  });

  test('a server that cannot answer (restarting) skips the check and keeps the status', async () => {
    const { c, published } = controller({ feedUrl: () => Promise.reject(new Error('the server is not running')) });
    await c.check();
    assert.deepEqual(published, []);
    assert.equal(c.current.state, 'idle');
  });
});

/** Serves `files` (name → content) like a plain static web server; counts requests per path. */
async function staticServer(files: Map<string, Buffer | string>) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1));
    hits.push(name);
    const body = files.get(name);
    if (body === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, hits, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** electron-updater's network layer with Node's http in place of Electron's net (everything else is its own code). */
class NodeHttpExecutor extends ElectronHttpExecutor {
  constructor() {
    super(() => {});
  }
  override createRequest(options: http.RequestOptions, callback: (response: http.IncomingMessage) => void): ReturnType<ElectronHttpExecutor['createRequest']> {
    // Typed as Electron's ClientRequest; Node's has every part the executor uses.
    return (options.protocol === 'https:' ? https : http).request(options, callback) as unknown as ReturnType<ElectronHttpExecutor['createRequest']>;
  }
  override addRedirectHandlers() {}
}

/** electron-updater's .deb updater, as the installed app's would be, over a temporary user-data and cache folder. */
async function realUpdater(work: string): Promise<DebUpdater> {
  // Written into the package by electron-builder from electron-builder.yml's `publish` (its URL is overridden at run time).
  const config = path.join(work, 'app-update.yml');
  await fs.writeFile(config, 'provider: generic\nurl: https://updates.trainbench.invalid/\nupdaterCacheDirName: trainbench-updater\n');
  const app: AppAdapter = {
    version: '1.3.0',
    name: 'Trainbench',
    isPackaged: true,
    appUpdateConfigPath: config,
    userDataPath: path.join(work, 'user'),
    baseCachePath: path.join(work, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => {},
    quit: () => {},
    onQuit: () => {},
  };
  const updater = new DebUpdater(null, app);
  (updater as unknown as { httpExecutor: NodeHttpExecutor }).httpExecutor = new NodeHttpExecutor();
  return updater;
}

/** latest*.yml as electron-builder writes it for a release (every platform's name, so any test machine finds its own). */
function channelFiles(version: string, file: string, content: Buffer, declaredSha512 = crypto.createHash('sha512').update(content).digest('base64')) {
  const yml = `version: ${version}\nfiles:\n  - url: ${file}\n    sha512: ${declaredSha512}\n    size: ${content.length}\npath: ${file}\nsha512: ${declaredSha512}\nreleaseDate: '2025-03-01T08:00:00.000Z'\n`;
  return new Map<string, Buffer | string>([...['latest.yml', 'latest-mac.yml', 'latest-linux.yml', 'latest-linux-arm64.yml'].map((name) => [name, yml] as const), [file, content]]);
}

describe('through electron-updater against a local update server', () => {
  let work: string;
  before(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-updates-'));
  });
  after(async () => {
    await fs.rm(work, { recursive: true, force: true });
  });

  async function run(files: Map<string, Buffer | string>) {
    const server = await staticServer(files);
    const dir = await fs.mkdtemp(path.join(work, 'run-'));
    const updater = await realUpdater(dir);
    const logged: string[] = [];
    const log: Logger = { info: (m) => void logged.push(m), error: (m) => void logged.push(m) };
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const published: UpdateStatus[] = [];
    const publish = (status: UpdateStatus) => {
      published.push(status);
      if (!['checking', 'downloading'].includes(status.state)) settle();
    };
    const { c, asked } = controller({ updater: () => updater, feedUrl: async () => server.url, log, publish });
    await c.check();
    await settled;
    await new Promise((resolve) => setImmediate(resolve));
    await server.close();
    return { c, published, asked, hits: server.hits, cache: path.join(dir, 'cache', 'trainbench-updater'), logged };
  }

  test('a newer release is found, downloaded with progress, its sha512 verified, and offered for restart', async () => {
    const pkg = crypto.randomBytes(256 * 1024);
    const { c, published, asked, hits, cache, logged } = await run(channelFiles('1.4.0', 'Trainbench_1.4.0_amd64.deb', pkg));
    assert.equal(c.current.state, 'downloaded', JSON.stringify(c.current));
    assert.deepEqual([c.current.available_version, c.current.downloaded_version, c.current.error], ['1.4.0', '1.4.0', null]);
    assert.ok(published.some((s) => s.state === 'downloading' && s.progress && s.progress.total === pkg.length), 'progress was published');
    assert.deepEqual(asked, ['1.4.0']);
    assert.match(hits[0]!, /^latest(-linux(-arm64)?|-mac)?\.yml$/);
    const stored = await fs.readFile(path.join(cache, 'pending', 'Trainbench_1.4.0_amd64.deb'));
    assert.ok(stored.equals(pkg), 'the verified file waits in the updater cache');
    assert.ok(logged.some((line) => line.startsWith('updater: ')), "electron-updater's own lines go to the main log");
  });

  test('a download whose sha512 does not match latest.yml is refused and never offered', async () => {
    const pkg = crypto.randomBytes(64 * 1024);
    const wrong = crypto.createHash('sha512').update('something else').digest('base64');
    const { c, asked, cache } = await run(channelFiles('1.4.0', 'Trainbench_1.4.0_amd64.deb', pkg, wrong));
    assert.equal(c.current.state, 'error');
    assert.match(String(c.current.error), /sha512 checksum mismatch/);
    assert.equal(c.current.downloaded_version, null);
    assert.deepEqual(asked, []);
    await assert.rejects(fs.access(path.join(cache, 'pending', 'Trainbench_1.4.0_amd64.deb')), 'nothing is kept to install');
  });

  test('the installed version, or an older one, is up to date; nothing is downloaded', async () => {
    for (const version of ['1.3.0', '1.2.9']) {
      const { c, hits } = await run(channelFiles(version, 'Trainbench.deb', Buffer.from('x')));
      assert.equal(c.current.state, 'up-to-date', version);
      assert.ok(!hits.includes('Trainbench.deb'));
    }
  });

  test('a latest.yml without files, one with a bad version, and a missing one are errors an admin can read', async () => {
    const noFiles = await run(new Map([['latest.yml', 'version: 1.4.0\n'], ['latest-linux.yml', 'version: 1.4.0\n'], ['latest-mac.yml', 'version: 1.4.0\n'], ['latest-linux-arm64.yml', 'version: 1.4.0\n']]));
    assert.equal(noFiles.c.current.state, 'error');
    assert.match(String(noFiles.c.current.error), /No files provided/);

    const badVersion = await run(channelFiles('next', 'Trainbench.deb', Buffer.from('x')));
    assert.equal(badVersion.c.current.state, 'error');
    assert.match(String(badVersion.c.current.error), /valid semver/);

    const missing = await run(new Map());
    assert.equal(missing.c.current.state, 'error');
    assert.match(String(missing.c.current.error), /Cannot find channel "latest(-linux(-arm64)?|-mac)?\.yml" update info/);
  });
});
