// When a browser test fails, say what its page showed: a timed-out wait only names the locator it waited for, and a
// CI log is all there is to go on afterwards. Prints the page's URL, the text of open dialogs, form errors and
// alerts, and the last script errors and failed requests, and saves a screenshot under test-results/failures/.
import { afterEach } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const FAILURE_DIR = path.resolve(import.meta.dirname, '../../test-results/failures');
const SHOWN = '[role=dialog], [role=alert], .ant-form-item-explain-error, .ant-message-notice, .ant-notification-notice';

const watched = new Map<Page, string[]>();

/** Reports on this page (with the errors collected for it) after any test of the file that fails. */
export function reportOnFailure(page: Page, pageErrors: string[]): void {
  watched.set(page, pageErrors);
  page.once('close', () => watched.delete(page));
}

async function describePage(page: Page, pageErrors: string[], testName: string): Promise<string[]> {
  const texts = await page
    .locator(SHOWN)
    .evaluateAll((nodes) => nodes.filter((n) => (n as HTMLElement).offsetParent !== null).map((n) => (n as HTMLElement).innerText.replace(/\s+/g, ' ').trim().slice(0, 400)))
    .catch((err: Error) => [`(could not read the page: ${err.message.split('\n')[0]})`]);
  fs.mkdirSync(FAILURE_DIR, { recursive: true });
  const file = path.join(FAILURE_DIR, `${testName.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 80)}.png`);
  const shot = await page.screenshot({ path: file, timeout: 10_000 }).then(
    () => file,
    () => '(no screenshot)',
  );
  return [`page ${page.url()}`, ...texts.map((t) => `shows: ${t}`), ...pageErrors.slice(-10).map((e) => `error: ${e}`), `screenshot: ${shot}`];
}

afterEach(async (t) => {
  // TestContext.passed (Node ≥ 20.18) is missing from @types/node's SuiteContext union.
  if ((t as { passed?: boolean }).passed !== false || watched.size === 0) return;
  for (const [page, pageErrors] of watched) {
    const lines = await describePage(page, pageErrors, t.name);
    console.log([`failure report for "${t.name}":`, ...lines.map((l) => `  ${l}`)].join('\n'));
  }
});
