import { openExternalUrl, type OpenExternal } from '../external-links.js';
import { handle, type IpcMainLike } from './register.js';

export interface AppIpcOptions {
  appOrigin: string;
  version: string;
  openExternal: OpenExternal;
}

/** The `app:*` channels: the version for the About line, and links the renderer wants opened outside. */
export function registerAppIpc(ipc: IpcMainLike, { appOrigin, version, openExternal }: AppIpcOptions): void {
  handle(ipc, appOrigin, 'app:get-version', () => version);
  handle(ipc, appOrigin, 'app:open-external', (url) => openExternalUrl(url, openExternal));
}
