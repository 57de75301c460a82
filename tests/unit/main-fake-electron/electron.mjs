// A stand-in for Electron's main-process API. It behaves as Electron does where main/ relies on it (ready,
// web-contents-created, will-quit that can be held, window-open handlers) and prints what happens as
// `FAKE {json}` lines for the test to read. After the window has loaded, it tries to leave the app and quits.
import { EventEmitter } from 'node:events';

export function record(event, details = {}) {
  process.stdout.write(`FAKE ${JSON.stringify({ event, ...details })}\n`);
}

const preventable = (fields = {}) => ({ ...fields, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } });

class FakeApp extends EventEmitter {
  isPackaged = false;
  whenReady() {
    return Promise.resolve();
  }
  getPath(name) {
    record('get-path', { name });
    return process.env.FAKE_USER_DATA;
  }
  getVersion() {
    return '1.3.0-test';
  }
  requestSingleInstanceLock() {
    return true;
  }
  quit() {
    record('quit');
    const event = preventable();
    this.emit('will-quit', event);
    if (!event.defaultPrevented) this.exit(0);
  }
  exit(code) {
    record('exit', { code });
    process.exit(code);
  }
}

export const app = new FakeApp();

class FakeWebContents extends EventEmitter {
  setWindowOpenHandler(handler) {
    this.openHandler = handler;
  }
}

export class BrowserWindow extends EventEmitter {
  static windows = [];
  static getAllWindows() {
    return BrowserWindow.windows;
  }
  constructor(options) {
    super();
    record('window', { webPreferences: options.webPreferences });
    this.webContents = new FakeWebContents();
    BrowserWindow.windows.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
  async loadURL(url) {
    const res = await fetch(url, { headers: { accept: 'text/html' } });
    record('load', { url, status: res.status });
    const away = preventable({ url: 'https://example.com/elsewhere' });
    this.webContents.emit('will-navigate', away);
    const home = preventable({ url });
    this.webContents.emit('will-navigate', home);
    const webview = preventable();
    this.webContents.emit('will-attach-webview', webview);
    record('navigation', {
      externalPrevented: away.defaultPrevented,
      internalPrevented: home.defaultPrevented,
      webviewPrevented: webview.defaultPrevented,
      openJavascript: this.webContents.openHandler({ url: 'javascript:alert(1)' }).action,
    });
    this.emit('ready-to-show');
    // Let the page "run" for a turn, then quit as a user closing the app would.
    setImmediate(() => app.quit());
  }
  show() {
    record('show');
  }
  isDestroyed() {
    return false;
  }
  isMinimized() {
    return false;
  }
  focus() {}
}

export const ipcMain = {
  handle(channel) {
    record('ipc', { channel });
  },
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler: () => record('permissions', { kind: 'request' }),
    setPermissionCheckHandler: () => record('permissions', { kind: 'check' }),
  },
};

export const shell = {
  async openExternal(url) {
    record('open-external', { url });
  },
};

export const dialog = {
  async showMessageBox(options) {
    record('message-box', { title: options.title, detail: options.detail });
    return { response: 0 };
  },
  showErrorBox(title, detail) {
    record('error-box', { title, detail });
  },
};
