/**
 * The renderer ↔ main contract. Channels are named `area:action`, all listed in one union; the preload builds
 * `DesktopBridge` on them and exposes it as `window.trainbench`. Types only: imported by main, preload and renderer.
 */
import type { UpdateStatus } from '../../contract/system.js';

export type { UpdateStatus } from '../../contract/system.js';

/** Invoked by the renderer, answered by main. */
export type IpcChannel = 'app:get-version' | 'app:open-external' | 'update:get-status' | 'update:install';

/** The embedded server as the window should present it. */
export interface ServerStatus {
  /** `restarting`: it stopped unexpectedly and a new one is starting (requests fail meanwhile); `stopped`: it
   * keeps stopping and is not restarted until the user says so (Help menu / the dialog shown). */
  state: 'running' | 'restarting' | 'stopped';
  /** A sentence for the user (English; the renderer may show its own translation by state). */
  message: string | null;
}

/** Sent by main to the window; the payload each carries. */
export interface IpcEvents {
  'update:status': UpdateStatus;
  'server:status': ServerStatus;
}
export type IpcEvent = keyof IpcEvents;

export interface DesktopBridge {
  /** The app's version (package.json). */
  getVersion(): Promise<string>;
  /** Opens an http(s) URL in the system browser; resolves false when the URL was refused. */
  openExternal(url: string): Promise<boolean>;
  /** The update state now (events only tell changes). */
  getUpdateStatus(): Promise<UpdateStatus>;
  /** Restarts into a downloaded update; resolves false when none is downloaded. */
  installUpdate(): Promise<boolean>;
  /** Every change of the update state (checking, download progress, downloaded...). Returns an unsubscribe. */
  onUpdateStatus(listener: (status: UpdateStatus) => void): () => void;
  /** The embedded server stopped unexpectedly, is back, or was given up on. Returns an unsubscribe. */
  onServerStatus(listener: (status: ServerStatus) => void): () => void;
}

/** What each channel's main-side handler receives (after the event) and returns. */
export interface IpcHandlers {
  'app:get-version': () => string;
  'app:open-external': (url: unknown) => Promise<boolean>;
  'update:get-status': () => UpdateStatus;
  'update:install': () => boolean;
}
