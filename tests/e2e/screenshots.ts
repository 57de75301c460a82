// Screenshots of the journeys, saved as test artifacts under test-results/screenshots/<journey>/<name>.png
// (git-ignored). Taken at the browser's 1366×768 viewport, the smallest screen we lay out for.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { settled } from './settle.js';

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');

export async function snap(page: Page, journey: string, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  const dir = path.join(SCREENSHOT_DIR, journey);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await settled(page);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false });
  return file;
}
