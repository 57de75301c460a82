import { BrowserWindow } from 'electron';
import { mainWindowOptions } from './window-options.js';
import type { Logger } from './log.js';
import { confirmLeavingPage } from './dialogs.js';
import type { MainT } from './i18n.js';

/** The main window, showing the renderer as served by the embedded server at `url`. */
export function createMainWindow(t: MainT, url: string, preload: string, log: Logger): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(preload));
  window.once('ready-to-show', () => window.show());
  // The renderer's beforeunload (an exam in progress) asks here; preventDefault lets the window close after all.
  window.webContents.on('will-prevent-unload', (event) => {
    if (confirmLeavingPage(t, window)) event.preventDefault();
  });
  window.loadURL(url).catch((err: unknown) => log.error(`loading ${url} failed`, err));
  return window;
}
