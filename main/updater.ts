// Self-update from the company's own update server: electron-updater's `generic` provider, pointed at the
// update_base_url system parameter (read from the server at every check, so an admin's change applies at the
// next one). Checks at start and every 6 hours while online, says nothing when offline, downloads in the
// background with its progress published (taskbar, window, server), and asks before restarting. The decisions
// are here; Electron, electron-updater, the dialog and the network state are passed in.
import type { UpdateStatus } from '../contract/system.js';
import { notApplicable } from '../server/system/update-status.js';
import type { Logger } from '../server/log/logger.js';
import { externalUrl } from './external-links.js';

export const CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** How often an offline app looks again whether it is back online (a local call, no traffic). */
export const OFFLINE_RETRY_MS = 15 * 60 * 1000;

interface UpdateInfoLike {
  version: string;
}
interface ProgressLike {
  percent: number;
  transferred: number;
  total: number;
  bytesPerSecond: number;
}

/** The part of electron-updater's AppUpdater used here (structural: tests pass a fake or a real updater). */
export interface AutoUpdaterLike {
  logger: unknown;
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<{ downloadPromise?: Promise<unknown> | null } | null>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-available' | 'update-not-available', listener: (info: UpdateInfoLike) => void): unknown;
  on(event: 'download-progress', listener: (progress: ProgressLike) => void): unknown;
  on(event: 'update-downloaded', listener: (info: UpdateInfoLike) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

export interface UpdaterOptions {
  /** Called only when updates apply: electron-updater builds its platform updater on first access. */
  updater: () => AutoUpdaterLike;
  /** Why updates do not apply here (see updatesNotApplicable), or null when they do. */
  notApplicableReason: string | null;
  installedVersion: string;
  /** The update_base_url parameter ('' = not configured), asked of the server at every check. */
  feedUrl: () => Promise<string>;
  /** Electron's net.isOnline(). */
  isOnline: () => boolean;
  /** The native "restart now?" question; resolves true to restart. */
  askToRestart: (version: string) => Promise<boolean>;
  /** Every change of the status: taskbar progress, the window's event, the server's update-status. */
  publish: (status: UpdateStatus) => void;
  log: Logger;
  now?: () => Date;
  intervalMs?: number;
  offlineRetryMs?: number;
}

/** Why an app does not update itself: run from source, under test, or turned off. Null for an installed build. */
export function updatesNotApplicable(isPackaged: boolean, env: NodeJS.ProcessEnv): string | null {
  if (!isPackaged) return 'The app runs from source (npm start): only an installed build updates itself.';
  if (env.NODE_ENV === 'test') return 'Updates are off under test.';
  if (env.TRAINBENCH_DISABLE_UPDATES === '1') return 'Updates are turned off on this computer (TRAINBENCH_DISABLE_UPDATES=1).';
  return null;
}

/** Network failures mean "offline", which users are never told about. */
const OFFLINE_ERROR = /ERR_INTERNET_DISCONNECTED|ERR_NAME_NOT_RESOLVED|ERR_NETWORK_CHANGED|ERR_CONNECTION_(REFUSED|RESET|TIMED_OUT|CLOSED)|ERR_ADDRESS_UNREACHABLE|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH/;

export class UpdateController {
  private status: UpdateStatus;
  private updater: AutoUpdaterLike | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private checking: Promise<void> | null = null;
  private feed: string | null = null;
  private asked = new Set<string>();

  constructor(private readonly options: UpdaterOptions) {
    const { notApplicableReason, installedVersion } = options;
    this.status = notApplicableReason ? notApplicable(installedVersion, notApplicableReason) : { ...notApplicable(installedVersion, ''), applies: true, reason: null, state: 'idle' };
  }

  get current(): UpdateStatus {
    return this.status;
  }

  /** Publishes the first status, checks now and then every 6 hours (sooner once back online), when updates apply. */
  start(): void {
    this.options.publish(this.status);
    if (!this.status.applies) return;
    this.timer = setInterval(() => void this.tick(), this.options.offlineRetryMs ?? OFFLINE_RETRY_MS);
    this.timer.unref?.();
    void this.check();
  }

  /** What the timer runs: a check is due every 6 hours, and at once when the last one found the computer offline. */
  tick(): Promise<void> {
    const due = this.status.next_check_at && (this.options.now?.() ?? new Date()).toISOString() >= this.status.next_check_at;
    return this.status.state === 'offline' || due ? this.check() : Promise.resolve();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One check; never throws (every outcome is a status). Skipped while one runs or an update waits for a restart. */
  check(): Promise<void> {
    if (!this.status.applies || this.status.state === 'downloading' || this.status.state === 'downloaded') return Promise.resolve();
    this.checking ??= this.runCheck().finally(() => (this.checking = null));
    return this.checking;
  }

  /** Restarts into the downloaded update (the renderer's "restart now"); false when none is downloaded. */
  install(): boolean {
    if (this.status.state !== 'downloaded' || !this.updater) return false;
    this.options.log.info(`restarting to install ${this.status.downloaded_version}`);
    this.updater.quitAndInstall(false, true);
    return true;
  }

  private update(changes: Partial<UpdateStatus>): void {
    this.status = { ...this.status, ...changes };
    this.options.publish(this.status);
  }

  private nextCheckAt(): string {
    const now = this.options.now?.() ?? new Date();
    return new Date(now.getTime() + (this.options.intervalMs ?? CHECK_INTERVAL_MS)).toISOString();
  }

  private async runCheck(): Promise<void> {
    const { log, isOnline, now = () => new Date() } = this.options;
    let url: string;
    try {
      url = (await this.options.feedUrl()).trim();
    } catch (err) {
      // The server is restarting: the next check asks again.
      log.info('update check skipped: the update address could not be read', err instanceof Error ? err.message : err);
      return;
    }
    const feed = url ? externalUrl(url) : null;
    if (!feed) {
      this.update({ state: 'not-configured', feed_url: null, error: url ? `update_base_url is not an http(s) URL: ${url}` : null, next_check_at: this.nextCheckAt() });
      return;
    }
    if (!isOnline()) {
      this.update({ state: 'offline', feed_url: feed, next_check_at: this.nextCheckAt() });
      return;
    }
    const updater = this.ensureUpdater();
    if (feed !== this.feed) {
      updater.setFeedURL({ provider: 'generic', url: feed });
      this.feed = feed;
    }
    this.update({ state: 'checking', feed_url: feed, error: null, last_checked_at: now().toISOString(), next_check_at: this.nextCheckAt() });
    try {
      const result = await updater.checkForUpdates();
      // Download failures arrive as `error` events too; this only keeps the rejection from going unhandled.
      result?.downloadPromise?.catch(() => {});
    } catch (err) {
      this.failed(err);
    }
  }

  private failed(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    const offline = OFFLINE_ERROR.test(message);
    // The same failure twice in a row (emitted and rejected, or every 6 hours) is one status, logged once.
    if (this.status.error === message && (this.status.state === 'error' || this.status.state === 'offline')) return;
    this.update({ state: offline ? 'offline' : 'error', progress: null, error: message.split('\n')[0]!.slice(0, 500) });
  }

  private ensureUpdater(): AutoUpdaterLike {
    if (this.updater) return this.updater;
    const { log } = this.options;
    const updater = this.options.updater();
    updater.logger = { info: (m: unknown) => log.info(`updater: ${String(m)}`), warn: (m: unknown) => log.info(`updater: ${String(m)}`), error: (m: unknown) => log.error(`updater: ${String(m)}`) };
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = true;
    updater.on('update-available', (info) => this.update({ state: 'downloading', available_version: info.version, progress: { percent: 0, transferred: 0, total: 0, bytes_per_second: 0 } }));
    updater.on('update-not-available', () => this.update({ state: 'up-to-date', available_version: null, progress: null }));
    updater.on('download-progress', (p) =>
      this.update({ state: 'downloading', progress: { percent: Math.round(p.percent * 10) / 10, transferred: p.transferred, total: p.total, bytes_per_second: Math.round(p.bytesPerSecond) } }),
    );
    updater.on('update-downloaded', (info) => void this.downloaded(info.version));
    updater.on('error', (err) => this.failed(err));
    this.updater = updater;
    return updater;
  }

  private async downloaded(version: string): Promise<void> {
    this.update({ state: 'downloaded', downloaded_version: version, progress: null, error: null });
    if (this.asked.has(version)) return;
    this.asked.add(version);
    const restart = await this.options.askToRestart(version);
    this.options.log.info(`update ${version} downloaded; ${restart ? 'restarting to install it' : 'it installs when the app quits'}`);
    if (restart) this.install();
  }
}
