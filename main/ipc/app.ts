import { openExternalUrl, type OpenExternal } from '../external-links.js';
import type { UpdateStatus } from '../../contract/system.js';
import { handle, type IpcMainLike } from './register.js';
import type { IpcEvent, IpcEvents } from './bridge.js';

export interface AppIpcOptions {
  appOrigin: string;
  version: string;
  openExternal: OpenExternal;
  updates: { readonly current: UpdateStatus; install(): boolean };
}

/** The `app:*` and `update:*` channels: the version for the About line, links opened outside, the update state. */
export function registerAppIpc(ipc: IpcMainLike, { appOrigin, version, openExternal, updates }: AppIpcOptions): void {
  handle(ipc, appOrigin, 'app:get-version', () => version);
  handle(ipc, appOrigin, 'app:open-external', (url) => openExternalUrl(url, openExternal));
  handle(ipc, appOrigin, 'update:get-status', () => updates.current);
  handle(ipc, appOrigin, 'update:install', () => updates.install());
}

/** The part of a window used to send it events. */
export interface EventTarget {
  isDestroyed(): boolean;
  webContents: { send(channel: string, payload: unknown): void };
}

/** Sends a typed event to the window (nothing once it is closed). */
export function sendEvent<E extends IpcEvent>(window: EventTarget | null, event: E, payload: IpcEvents[E]): void {
  if (window && !window.isDestroyed()) window.webContents.send(event, payload);
}
