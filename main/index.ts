// Wiring only: start the embedded server, lock down web contents, open the window, stop the server on quit.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import electronUpdater from 'electron-updater';
import { startServer, type RunningServer } from '../server/start.js';
import { desktopServerConfig } from './server-config.js';
import { installSecurity } from './security.js';
import { registerAppIpc } from './ipc/app.js';
import { createMainWindow } from './window.js';
import { shouldCheckForUpdates, startUpdater } from './updater.js';
import { describeStartupError } from './startup-errors.js';
import { showGeneratedAdminPassword, showStartupError } from './dialogs.js';
import { consoleLogger as log } from './log.js';

const preload = path.join(path.dirname(fileURLToPath(import.meta.url)), 'preload.cjs');
const openExternal = (url: string) => shell.openExternal(url);

async function main(): Promise<void> {
  await app.whenReady();
  const config = desktopServerConfig(process.env, app.getPath('userData'));
  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (err) {
    log.error('the embedded server failed to start', err);
    showStartupError(describeStartupError(err, config.dataDir));
    app.exit(1);
    return;
  }
  log.info(`server listening on ${server.url}`);
  stopServerOnQuit(server);

  const appOrigin = new URL(server.url).origin;
  installSecurity({ app, session: session.defaultSession, appOrigin, openExternal, log });
  registerAppIpc(ipcMain, { appOrigin, version: app.getVersion(), openExternal });

  if (server.generatedAdminPassword) await showGeneratedAdminPassword(config.adminUsername, server.generatedAdminPassword);

  const url = `${server.url}/`;
  let window = createMainWindow(url, preload, log);
  app.on('second-instance', () => {
    if (window.isDestroyed()) window = createMainWindow(url, preload, log);
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) window = createMainWindow(url, preload, log);
  });

  startUpdater({ updater: () => electronUpdater.autoUpdater, enabled: shouldCheckForUpdates(app.isPackaged, process.env), log });
}

/** Holds the quit until the server has closed its connections and the database. */
function stopServerOnQuit(server: RunningServer): void {
  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    server
      .close()
      .catch((err: unknown) => log.error('stopping the embedded server failed', err))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// One instance per user: a second launch focuses the first (two servers must not share one SQLite file).
if (app.requestSingleInstanceLock()) {
  main().catch((err: unknown) => {
    log.error('startup failed', err);
    app.exit(1);
  });
} else {
  app.quit();
}
