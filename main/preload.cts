// Sandboxed preloads run as classic scripts with a restricted `require`: hence CommonJS, and no local imports
// at run time (types only). Everything the page can reach from Node is this object.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { DesktopBridge, IpcChannel, IpcEvent, IpcEvents } from './ipc/bridge.js';

const invoke = (channel: IpcChannel, ...args: unknown[]) => ipcRenderer.invoke(channel, ...args);

/** A listener on one main → window event; returns its unsubscribe. The Electron event never reaches the page. */
const subscribe =
  <E extends IpcEvent>(event: E) =>
  (listener: (payload: IpcEvents[E]) => void): (() => void) => {
    const forward = (_event: IpcRendererEvent, payload: IpcEvents[E]) => listener(payload);
    ipcRenderer.on(event, forward);
    return () => void ipcRenderer.removeListener(event, forward);
  };

const bridge = {
  getVersion: () => invoke('app:get-version'),
  openExternal: (url: string) => invoke('app:open-external', url),
  getUpdateStatus: () => invoke('update:get-status'),
  installUpdate: () => invoke('update:install'),
  onUpdateStatus: subscribe('update:status'),
  onServerStatus: subscribe('server:status'),
} satisfies DesktopBridge;

contextBridge.exposeInMainWorld('trainbench', bridge);
