import { BrowserWindow } from 'electron';
import { mainWindowOptions } from './window-options.js';
import type { Logger } from './log.js';

/** The main window, showing the renderer as served by the embedded server at `url`. */
export function createMainWindow(url: string, preload: string, log: Logger): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(preload));
  window.once('ready-to-show', () => window.show());
  window.loadURL(url).catch((err: unknown) => log.error(`loading ${url} failed`, err));
  return window;
}
