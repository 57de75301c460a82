// What every browser test needs: Debian's Chromium, the built renderer, and a page whose script errors, console
// errors and failed requests are collected for the final "nothing went wrong" check.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { defaultRendererDir } from '../../server/static/static.js';
import { reportOnFailure } from './failure-report.js';
import { skipUnlessCI } from '../support/tools.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A describe() skip reason when Chromium is missing, else false. */
export const skipWithoutChromium = skipUnlessCI(!fs.existsSync(CHROMIUM) && `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

export function assertRendererBuilt(): void {
  assert.ok(fs.existsSync(path.join(defaultRendererDir(), 'index.html')), 'renderer/dist is missing: run `npx vite build --config renderer/vite.config.ts` first');
}

export interface OpenBrowser {
  browser: Browser;
  page: Page;
  /** Script errors (Content-Security-Policy violations included), console errors and responses ≥ 400. */
  pageErrors: string[];
}

export async function openBrowser(options: { acceptDownloads?: boolean } = {}): Promise<OpenBrowser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  // Reduced motion: the app then turns antd's zoom and slide animations off, so a click never lands on a dialog or
  // popover that is still moving in (the click would go to whatever was under the pointer when the button was released).
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 }, acceptDownloads: options.acceptDownloads ?? false, reducedMotion: 'reduce' });
  // The suite runs two browser files at once on a 2-core machine, each with its servers: a step can wait on the
  // CPU alone for longer than Playwright's 30 s default.
  page.setDefaultTimeout(60_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) pageErrors.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  reportOnFailure(page, pageErrors);
  return { browser, page, pageErrors };
}
