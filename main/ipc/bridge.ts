/**
 * The renderer ↔ main contract. Channels are named `area:action`, all listed in one union; the preload builds
 * `DesktopBridge` on them and exposes it as `window.trainbench`. Types only: imported by main, preload and renderer.
 */
export type IpcChannel = 'app:get-version' | 'app:open-external';

export interface DesktopBridge {
  /** The app's version (package.json). */
  getVersion(): Promise<string>;
  /** Opens an http(s) URL in the system browser; resolves false when the URL was refused. */
  openExternal(url: string): Promise<boolean>;
}

/** What each channel's main-side handler receives (after the event) and returns. */
export interface IpcHandlers {
  'app:get-version': () => string;
  'app:open-external': (url: unknown) => Promise<boolean>;
}
