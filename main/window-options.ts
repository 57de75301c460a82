import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/** Every window of the app: an isolated, sandboxed renderer without Node and without <webview>. */
export function secureWebPreferences(preload?: string): WebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    ...(preload ? { preload } : {}),
  };
}

export function mainWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    title: 'Trainbench',
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    // Shown on ready-to-show, so the user never sees an empty white frame.
    show: false,
    backgroundColor: '#f4f6fa',
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(preload),
  };
}
