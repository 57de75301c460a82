// The start of a journey: Chromium with the renderer built, on the server's page, signed in (the admin by default).
import { assertRendererBuilt, openBrowser, type OpenBrowser } from './browser.js';
import { ADMIN_PASSWORD, type TestServer } from '../support/server.js';
import { LoginPage } from './page-models/login-page.js';

interface SignIn {
  username?: string;
  /** Users made by `server.user()` have 'secret-pass'. */
  password?: string;
  acceptDownloads?: boolean;
}

export async function openSignedIn(server: TestServer, { username = 'admin', password = username === 'admin' ? ADMIN_PASSWORD : 'secret-pass', acceptDownloads }: SignIn = {}): Promise<OpenBrowser> {
  assertRendererBuilt();
  const opened = await openBrowser({ acceptDownloads });
  await opened.page.goto(`${server.url}/`);
  await new LoginPage(opened.page).logIn(username, password);
  return opened;
}
