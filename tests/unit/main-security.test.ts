import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { WindowOpenHandlerResponse } from 'electron';
import { installSecurity, isPermissionAllowed, windowOpenDecision, type GuardedContents, type GuardedSession } from '../../main/security.js';
import type { Logger } from '../../main/log.js';

const APP = 'http://127.0.0.1:3210';

class FakeContents extends EventEmitter {
  openHandler?: (details: { url: string }) => WindowOpenHandlerResponse;
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenHandlerResponse) {
    this.openHandler = handler;
  }
  /** Emits a navigation-like event and says whether a listener cancelled it. */
  attempt(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url = ''): boolean {
    let prevented = false;
    this.emit(event, { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

class FakeSession implements GuardedSession {
  request?: Parameters<GuardedSession['setPermissionRequestHandler']>[0];
  check?: Parameters<GuardedSession['setPermissionCheckHandler']>[0];
  setPermissionRequestHandler(handler: NonNullable<FakeSession['request']>) {
    this.request = handler;
  }
  setPermissionCheckHandler(handler: NonNullable<FakeSession['check']>) {
    this.check = handler;
  }
  requestPermission(permission: string, requestingUrl: string, mediaTypes?: string[]): boolean {
    let granted: boolean | undefined;
    this.request!({}, permission, (g) => (granted = g), { requestingUrl, ...(mediaTypes && { mediaTypes }) });
    assert.notEqual(granted, undefined, 'the request handler must always answer');
    return granted!;
  }
}

/** Lets the openExternal promise chains settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('installSecurity', () => {
  let opened: string[];
  let errors: unknown[][];
  let contents: FakeContents;
  let session: FakeSession;
  let openFails: boolean;

  beforeEach(() => {
    opened = [];
    errors = [];
    openFails = false;
    const app = new EventEmitter();
    session = new FakeSession();
    const log: Logger = { info: () => {}, error: (...args) => void errors.push(args) };
    installSecurity({
      app: app as never,
      session,
      appOrigin: APP,
      openExternal: async (url) => {
        if (openFails) throw new Error('no browser');
        opened.push(url);
      },
      log,
    });
    contents = new FakeContents();
    app.emit('web-contents-created', {}, contents as unknown as GuardedContents);
  });

  test('blocks every <webview>', () => {
    assert.equal(contents.attempt('will-attach-webview'), true);
  });

  test('lets the app navigate within its origin', () => {
    assert.equal(contents.attempt('will-navigate', `${APP}/#/products`), false);
    assert.equal(contents.attempt('will-redirect', `${APP}/`), false);
  });

  test('keeps the window on the app: web links open in the browser, other schemes nowhere', async () => {
    assert.equal(contents.attempt('will-navigate', 'https://example.com/docs'), true);
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', '\\\\host\\share', 'http://127.0.0.1:9999/', `https://evil.example/?next=${APP}`]) {
      assert.equal(contents.attempt('will-navigate', url), true, url);
    }
    await settle();
    assert.deepEqual(opened, ['https://example.com/docs', 'http://127.0.0.1:9999/', `https://evil.example/?next=${APP}`]);
  });

  test('never follows a redirect off the app origin, nor opens it', async () => {
    assert.equal(contents.attempt('will-redirect', 'https://evil.example/'), true);
    assert.equal(contents.attempt('will-redirect', 'file:///etc/passwd'), true);
    await settle();
    assert.deepEqual(opened, []);
  });

  test('new windows: app pages in a locked-down app window, web links in the browser, the rest denied', async () => {
    const internal = contents.openHandler!({ url: `${APP}/api/media/file/3?token=1.x` });
    assert.equal(internal.action, 'allow');
    const prefs = internal.overrideBrowserWindowOptions?.webPreferences;
    assert.equal(prefs?.contextIsolation, true);
    assert.equal(prefs?.sandbox, true);
    assert.equal(prefs?.nodeIntegration, false);
    assert.equal(prefs?.webviewTag, false);

    assert.deepEqual(contents.openHandler!({ url: 'https://example.com/' }), { action: 'deny' });
    for (const url of ['javascript:alert(1)', 'file:///C:/x.exe', 'about:blank', '\\\\host\\share']) {
      assert.deepEqual(contents.openHandler!({ url }), { action: 'deny' }, url);
    }
    await settle();
    assert.deepEqual(opened, ['https://example.com/']);
  });

  test('a browser that cannot open is logged, not thrown', async () => {
    openFails = true;
    assert.equal(contents.attempt('will-navigate', 'https://example.com/'), true);
    await settle();
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]![0]), /example\.com/);
  });

  test('grants only fullscreen, clipboard writes and the microphone alone, and only to the app', () => {
    assert.equal(session.requestPermission('media', `${APP}/#/roleplay`, ['audio']), true, 'the microphone for a spoken turn');
    assert.equal(session.requestPermission('media', `${APP}/`, ['audio', 'video']), false, 'never the camera');
    assert.equal(session.requestPermission('media', `${APP}/`, ['video']), false);
    assert.equal(session.requestPermission('media', 'https://evil.example/', ['audio']), false);
    assert.equal(session.check!({}, 'media', APP, { mediaType: 'audio' }), true);
    assert.equal(session.check!({}, 'media', APP, { mediaType: 'video' }), false);
    assert.equal(session.requestPermission('fullscreen', `${APP}/#/courses/1`), true);
    assert.equal(session.requestPermission('clipboard-sanitized-write', `${APP}/`), true);
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'hid', 'usb', 'serial']) {
      assert.equal(session.requestPermission(permission, `${APP}/`), false, permission);
    }
    assert.equal(session.requestPermission('fullscreen', 'https://evil.example/'), false);
    assert.equal(session.check!({}, 'fullscreen', APP), true);
    assert.equal(session.check!({}, 'fullscreen', 'http://127.0.0.1:1'), false);
    assert.equal(session.check!({}, 'media', APP), false);
  });
});

test('isPermissionAllowed and windowOpenDecision are pure decisions', () => {
  assert.equal(isPermissionAllowed('fullscreen', undefined, APP), false);
  assert.equal(windowOpenDecision(`${APP}/`, APP), 'app-window');
  assert.equal(windowOpenDecision('HTTPS://example.com', APP), 'external');
  assert.equal(windowOpenDecision('ftp://example.com', APP), 'deny');
});
