// When a browser test fails, say what its page showed: a timed-out wait only names the locator it waited for, and a
// CI log is all there is to go on afterwards. Prints the page's URL, the text of open dialogs, form errors and
// alerts, the last script errors and failed requests and the last API calls, and saves a screenshot under
// test-results/failures/.
import { afterEach } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const FAILURE_DIR = path.resolve(import.meta.dirname, '../../test-results/failures');
const SHOWN = '[role=dialog], [role=alert], .ant-form-item-explain-error, .ant-message-notice, .ant-notification-notice';

interface Watched {
  pageErrors: string[];
  /** The page's last API calls, oldest first: did the click send anything, and what came back. */
  calls: string[];
}
const watched = new Map<Page, Watched>();
const CALLS_KEPT = 12;

/** Reports on this page (with the errors collected for it) after any test of the file that fails. */
export function reportOnFailure(page: Page, pageErrors: string[]): void {
  const calls: string[] = [];
  const note = (line: string) => calls.push(line) > CALLS_KEPT && calls.shift();
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/')) return;
    const line = (status: string) => note(`${new Date().toISOString().slice(11, 23)} ${request.method()} ${url.pathname}${url.search} → ${status}`);
    // The browser may close while the response is asked for (a request finishing as the file's tests end).
    request.response().then((res) => line(String(res?.status() ?? '?')), () => line('closed'));
  });
  page.on('requestfailed', (request) => note(`${request.method()} ${new URL(request.url()).pathname} failed: ${request.failure()?.errorText ?? '?'}`));
  watched.set(page, { pageErrors, calls });
  page.once('close', () => watched.delete(page));
}

async function describePage(page: Page, { pageErrors, calls }: Watched, testName: string): Promise<string[]> {
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
  return [`page ${page.url()}`, ...texts.map((t) => `shows: ${t}`), ...pageErrors.slice(-10).map((e) => `error: ${e}`), ...calls.map((c) => `api: ${c}`), `at ${new Date().toISOString().slice(11, 23)}, screenshot: ${shot}`];
}

afterEach(async (t) => {
  // TestContext.passed (Node ≥ 20.18) is missing from @types/node's SuiteContext union.
  if ((t as { passed?: boolean }).passed !== false || watched.size === 0) return;
  for (const [page, state] of watched) {
    const lines = await describePage(page, state, t.name);
    console.log([`failure report for "${t.name}":`, ...lines.map((l) => `  ${l}`)].join('\n'));
  }
});
