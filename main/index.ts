// Wiring only: start the server in its own process, lock down web contents, open the window, keep the server
// alive, look for updates, and stop the server (database checkpointed and closed) on quit.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, Menu, net, session, shell, utilityProcess } from 'electron';
import electronUpdater from 'electron-updater';
import { logsDir } from '../server/log/logger.js';
import { desktopServerConfig } from './server-config.js';
import { installSecurity } from './security.js';
import { registerAppIpc, sendEvent } from './ipc/app.js';
import type { ServerStatus } from './ipc/bridge.js';
import { createMainWindow } from './window.js';
import { UpdateController, updatesNotApplicable } from './updater.js';
import { describeStartupError } from './startup-errors.js';
import { askAfterServerGaveUp, askToRestartForUpdate, showAbout, showGeneratedAdminPassword, showStartupError } from './dialogs.js';
import { mainLogger, type Logger } from './log.js';
import { ServerSupervisor } from './server-supervisor.js';
import { appMenuTemplate } from './menu.js';
import { aboutText } from './about.js';
import { mainTranslator, pickLanguage } from './i18n.js';
import { SERVER_HEAP_FLAGS } from '../server/heap-flags.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const preload = path.join(here, 'preload.cjs');
// server-host.js when built; server-host.ts when main itself runs from TypeScript (the tests).
const serverEntry = path.join(here, `server-host${path.extname(fileURLToPath(import.meta.url))}`);
const openExternal = (url: string) => shell.openExternal(url);

async function main(): Promise<void> {
  await app.whenReady();
  const t = mainTranslator(pickLanguage(app.getPreferredSystemLanguages()));
  const config = desktopServerConfig(process.env, app.getPath('userData'), { packaged: app.isPackaged, resourcesPath: process.resourcesPath });
  const log = mainLogger(config.dataDir, !app.isPackaged);
  log.info(`Trainbench ${app.getVersion()} starting (Electron ${process.versions.electron ?? '-'}, ${process.platform} ${process.arch}); data in ${config.dataDir}`);

  let window: BrowserWindow | null = null;
  const showServerStatus = (status: ServerStatus) => {
    window?.setTitle(status.state === 'running' ? 'Trainbench' : `Trainbench — ${status.message}`);
    sendEvent(window, 'server:status', status);
  };
  const openLogFolder = () => void shell.openPath(logsDir(config.dataDir));
  const supervisor: ServerSupervisor = new ServerSupervisor({
    fork: () => utilityProcess.fork(serverEntry, [], { serviceName: 'Trainbench server', stdio: 'pipe', execArgv: [...SERVER_HEAP_FLAGS] }),
    config,
    log,
    onCrash: ({ restarting }) => restarting && showServerStatus({ state: 'restarting', message: t('server.restarting') }),
    onRestarted: () => showServerStatus({ state: 'running', message: null }),
    onGaveUp: (reason) => {
      showServerStatus({ state: 'stopped', message: t('server.stopped') });
      void askAfterServerGaveUp(t, window, reason).then((choice) => {
        if (choice === 'quit') return app.quit();
        if (choice === 'logs') openLogFolder();
        supervisor.retry().catch((err: Error) => log.error('starting the server again failed', err.message));
      });
    },
  });

  let server;
  try {
    server = await supervisor.start();
  } catch (err) {
    log.error('the embedded server failed to start', err);
    showStartupError(describeStartupError(t, err, config.dataDir));
    app.exit(1);
    return;
  }
  log.info(`server listening on ${server.url}`);
  if (server.recovered) log.info('the previous session had not stopped cleanly; the server recovered its data (details in server.log)');

  const updates = new UpdateController({
    updater: () => electronUpdater.autoUpdater,
    notApplicableReason: updatesNotApplicable(app.isPackaged, process.env),
    installedVersion: app.getVersion(),
    feedUrl: () => supervisor.request('update-base-url'),
    isOnline: () => net.isOnline(),
    askToRestart: (version) => askToRestartForUpdate(t, window, version),
    publish: (status) => {
      window?.setProgressBar(status.state === 'downloading' && status.progress ? status.progress.percent / 100 : -1);
      sendEvent(window, 'update:status', status);
      supervisor.reportUpdateStatus(status);
    },
    log,
  });
  stopServerOnQuit(supervisor, updates, log);

  const appOrigin = new URL(server.url).origin;
  installSecurity({ app, session: session.defaultSession, appOrigin, openExternal, log });
  registerAppIpc(ipcMain, { appOrigin, version: app.getVersion(), openExternal, updates });
  const showAboutDialog = () =>
    void showAbout(
      t,
      window,
      aboutText(t, { appVersion: app.getVersion(), server: supervisor.current?.about ?? null, versions: process.versions, platform: `${process.platform} ${process.arch}`, dataDir: config.dataDir, logsDir: logsDir(config.dataDir) }),
    );
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(t, process.platform, { openLogFolder, showAbout: showAboutDialog }, { devTools: !app.isPackaged })));

  if (server.generatedAdminPassword) await showGeneratedAdminPassword(t, config.adminUsername, server.generatedAdminPassword);

  const url = `${server.url}/`;
  window = createMainWindow(t, url, preload, log);
  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) window = createMainWindow(t, url, preload, log);
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) window = createMainWindow(t, url, preload, log);
  });
  updates.start();
}

/** Holds the quit until the server has closed its connections, checkpointed and closed the database. */
function stopServerOnQuit(supervisor: ServerSupervisor, updates: UpdateController, log: Logger): void {
  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    updates.stop();
    supervisor
      .stop()
      .catch((err: unknown) => log.error('stopping the embedded server failed', err))
      .finally(() => {
        stopped = true;
        log.info('quit');
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
    console.error('[trainbench] startup failed', err);
    app.exit(1);
  });
} else {
  app.quit();
}
