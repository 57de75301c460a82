import type { Logger } from './log.js';

/** The part of electron-updater's autoUpdater used here (structural, so tests pass a fake). */
export interface AutoUpdaterLike {
  logger: unknown;
  autoDownload: boolean;
  on(event: 'error', listener: (err: Error) => void): unknown;
  checkForUpdatesAndNotify(): Promise<unknown>;
}

export interface UpdaterOptions {
  /** Called only when enabled: electron-updater builds its platform updater on first access. */
  updater: () => AutoUpdaterLike;
  enabled: boolean;
  log: Logger;
}

/** Only an installed build looks for updates: never from source (`npm start`), under test, or when turned off. */
export function shouldCheckForUpdates(isPackaged: boolean, env: NodeJS.ProcessEnv): boolean {
  return isPackaged && env.NODE_ENV !== 'test' && env.TRAINBENCH_DISABLE_UPDATES !== '1';
}

/**
 * Checks once for an update and lets electron-updater download it and notify. Quiet unless something fails:
 * failures (offline, no update server) are logged once and never reach the user as errors. Returns whether a
 * check was started.
 */
export function startUpdater({ updater: getUpdater, enabled, log }: UpdaterOptions): boolean {
  if (!enabled) return false;
  const updater = getUpdater();
  let lastLogged: unknown;
  // electron-updater both emits `error` and rejects for one failure: log it once.
  const logFailure = (err: unknown) => {
    if (err === lastLogged) return;
    lastLogged = err;
    log.error('update check failed', err instanceof Error ? err.message : err);
  };
  updater.logger = null;
  updater.autoDownload = true;
  updater.on('error', logFailure);
  updater.checkForUpdatesAndNotify().catch(logFailure);
  return true;
}
