import { isInternalUrl } from '../trusted-url.js';
import type { IpcChannel, IpcHandlers } from './bridge.js';

/** The part of an IPC invoke event we look at: which frame sent it. */
export interface InvokeEvent {
  senderFrame: { url: string } | null;
}

/** Electron's ipcMain, reduced to what registering handlers needs. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => unknown): void;
}

/** Raised to the renderer when a frame outside the app origin invokes a channel. */
export class UntrustedSenderError extends Error {
  constructor(channel: IpcChannel) {
    super(`${channel} refused: the sender is not an app page`);
    this.name = 'UntrustedSenderError';
  }
}

/** Registers one typed handler that answers only frames on the app's origin. */
export function handle<C extends IpcChannel>(ipc: IpcMainLike, appOrigin: string, channel: C, handler: IpcHandlers[C]): void {
  ipc.handle(channel, (event, ...args) => {
    if (!isInternalUrl(event.senderFrame?.url, appOrigin)) throw new UntrustedSenderError(channel);
    return (handler as (...a: unknown[]) => unknown)(...args);
  });
}
