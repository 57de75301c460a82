// A stand-in for Electron's main-process API. It behaves as Electron does where main/ relies on it (ready,
// web-contents-created, will-quit that can be held, window-open handlers, a utilityProcess that is a real child
// process) and prints what happens as `FAKE {json}` lines for the test to read. After the window has loaded, it
// tries to leave the app, plays the steps named in FAKE_SCENARIO (comma-separated: `menu` clicks Help's items,
// `crash` kills the server process and waits for the window to say it is back) and quits.
import { EventEmitter } from 'node:events';
import { forkNodeServer } from '../../../main/node-server-process.ts';

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
  /** The system's languages: FAKE_LANGUAGES (comma-separated), English by default so that most tests read English. */
  getPreferredSystemLanguages() {
    return (process.env.FAKE_LANGUAGES ?? 'en-US').split(',');
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
  send(channel, payload) {
    record('send', { channel, payload });
  }
}

let applicationMenu = null;
export const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu(menu) {
    applicationMenu = menu;
    record('menu', { labels: menu.template.map((item) => item.label ?? item.role) });
  },
};

/** Electron's utilityProcess, as a Node child process running the module with process.parentPort. */
const utilities = [];
export const utilityProcess = {
  fork(modulePath, args, options) {
    record('utility-fork', { modulePath, serviceName: options?.serviceName, execArgv: options?.execArgv });
    const execArgv = [...(options?.execArgv ?? []), '--import', 'tsx', '--import', new URL('./parent-port.mjs', import.meta.url).href];
    const child = forkNodeServer(modulePath, { execArgv });
    utilities.push(child);
    return child;
  },
};

export const net = { isOnline: () => true };

export const clipboard = { writeText: (text) => record('clipboard', { text }) };

const scenario = (process.env.FAKE_SCENARIO ?? '').split(',').filter(Boolean);

async function play(window) {
  for (const step of scenario) {
    if (step === 'menu') {
      const help = applicationMenu.template.find((item) => item.role === 'help');
      for (const item of help.submenu.filter((i) => i.click)) {
        record('click', { label: item.label });
        await item.click();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (step === 'crash') {
      const server = utilities.at(-1);
      const back = new Promise((resolve) => window.once('title-restored', resolve));
      record('kill-server', { pid: server.pid });
      process.kill(server.pid, 'SIGKILL');
      await back;
    }
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
    setImmediate(() => play(this).then(() => app.quit()));
  }
  show() {
    record('show');
  }
  setTitle(title) {
    record('title', { title });
    if (title === 'Trainbench') this.emit('title-restored');
  }
  setProgressBar(value) {
    record('progress', { value });
  }
  restore() {}
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
  async openPath(path) {
    record('open-path', { path });
    return '';
  },
};

export const dialog = {
  async showMessageBox(windowOrOptions, maybeOptions) {
    const options = maybeOptions ?? windowOrOptions;
    record('message-box', { title: options.title, detail: options.detail });
    return { response: 0 };
  },
  showErrorBox(title, detail) {
    record('error-box', { title, detail });
  },
};
