import type { WindowOpenHandlerResponse } from 'electron';
import { isInternalUrl } from './trusted-url.js';
import { openExternalUrl, type OpenExternal } from './external-links.js';
import { secureWebPreferences } from './window-options.js';
import type { Logger } from './log.js';

interface PreventableEvent {
  preventDefault(): void;
}
interface NavigationEvent extends PreventableEvent {
  url: string;
}

/** The parts of Electron's WebContents this module uses (kept structural so it runs under plain Node in tests). */
export interface GuardedContents {
  on(event: 'will-navigate', listener: (event: NavigationEvent) => void): unknown;
  on(event: 'will-redirect', listener: (event: NavigationEvent) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenHandlerResponse): void;
}

export interface GuardedApp {
  on(event: 'web-contents-created', listener: (event: unknown, contents: GuardedContents) => void): unknown;
}

export interface GuardedSession {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string; mediaTypes?: string[] }) => void): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string, requestingOrigin: string, details?: { mediaType?: string }) => boolean): void;
}

export interface SecurityOptions {
  app: GuardedApp;
  session: GuardedSession;
  /** The embedded server's origin, e.g. http://127.0.0.1:3210: the only place windows may show. */
  appOrigin: string;
  openExternal: OpenExternal;
  log: Logger;
}

/**
 * Permissions the app's own pages may use: fullscreen video, copying text, and the microphone alone (a rep's spoken
 * turn in 陪练, a voiceprint); never the camera. Everything else is refused.
 */
const APP_PERMISSIONS = new Set(['fullscreen', 'clipboard-sanitized-write']);

export function isPermissionAllowed(permission: string, requestingUrl: string | undefined, appOrigin: string, mediaTypes: readonly string[] = []): boolean {
  if (!isInternalUrl(requestingUrl, appOrigin)) return false;
  if (permission === 'media') return mediaTypes.length > 0 && mediaTypes.every((type) => type === 'audio');
  return APP_PERMISSIONS.has(permission);
}

/**
 * Window-open policy: app pages (e.g. a media preview) open in a new app window with the same locked-down
 * preferences and no preload; http(s) links go to the system browser; everything else is dropped.
 */
export function windowOpenDecision(url: string, appOrigin: string): 'app-window' | 'external' | 'deny' {
  if (isInternalUrl(url, appOrigin)) return 'app-window';
  return /^https?:/i.test(url) ? 'external' : 'deny';
}

/** Locks down every web contents the app creates. Call once, before the first window opens. */
export function installSecurity({ app, session, appOrigin, openExternal, log }: SecurityOptions): void {
  const openOutside = (url: string) => {
    openExternalUrl(url, openExternal).catch((err: unknown) => log.error(`opening ${url} in the browser failed`, err));
  };

  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());

    contents.on('will-navigate', (event) => {
      if (isInternalUrl(event.url, appOrigin)) return;
      event.preventDefault();
      openOutside(event.url);
    });

    // A redirect off the app's origin is never followed, and never opened elsewhere either.
    contents.on('will-redirect', (event) => {
      if (!isInternalUrl(event.url, appOrigin)) event.preventDefault();
    });

    contents.setWindowOpenHandler(({ url }) => {
      const decision = windowOpenDecision(url, appOrigin);
      if (decision === 'app-window') {
        return { action: 'allow', overrideBrowserWindowOptions: { autoHideMenuBar: true, webPreferences: secureWebPreferences() } };
      }
      if (decision === 'external') openOutside(url);
      return { action: 'deny' };
    });
  });

  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl, appOrigin, details.mediaTypes));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    isPermissionAllowed(permission, requestingOrigin, appOrigin, details?.mediaType ? [details.mediaType] : []),
  );
}
