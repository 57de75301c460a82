// Sandboxed preloads run as classic scripts with a restricted `require`: hence CommonJS, and no local imports
// at run time (types only). Everything the page can reach from Node is this object.
import { contextBridge, ipcRenderer } from 'electron';
import type { DesktopBridge, IpcChannel } from './ipc/bridge.js';

const invoke = (channel: IpcChannel, ...args: unknown[]) => ipcRenderer.invoke(channel, ...args);

const bridge = {
  getVersion: () => invoke('app:get-version'),
  openExternal: (url: string) => invoke('app:open-external', url),
} satisfies DesktopBridge;

contextBridge.exposeInMainWorld('trainbench', bridge);
