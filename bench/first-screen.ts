// Issue 12's "first screen interactive < 1 s against the local server", measured in Debian's Chromium with a cold
// cache each time: the login screen (its sign-in button usable) and a signed-in employee's dashboard (its cards
// filled), against Chromium loading bare Koa's constant JSON in the same run. Medians of ROUNDS loads.
import { chromium, type Browser } from 'playwright-core';
import { startBenchServer, type BenchContext } from './harness.js';
import zhAuth from '../renderer/src/i18n/locales/zh-CN/auth.json' with { type: 'json' };
import zhHome from '../renderer/src/i18n/locales/zh-CN/home.json' with { type: 'json' };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROUNDS = 7;
const TARGET_MS = 1_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Milliseconds from the start of navigation until `ready` resolves, in a fresh context (no cache, no session). */
async function timeToReady(browser: Browser, url: string, ready: (page: import('playwright-core').Page) => Promise<unknown>, token?: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  try {
    if (token) await context.addInitScript((t) => sessionStorage.setItem('trainbench.token', t), token);
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await ready(page);
    return await page.evaluate(() => performance.now());
  } finally {
    await context.close();
  }
}

export async function firstScreen({ bareKoa }: BenchContext): Promise<void> {
  const server = await startBenchServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    await server.api('POST', '/api/system/users', server.adminToken, { username: 'bench-employee', password: 'bench-user-pass', full_name: 'Bench Employee', role: 'employee' });
    const token = await server.login('bench-employee', 'bench-user-pass');
    const samples = { baseline: [] as number[], login: [] as number[], home: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      samples.baseline.push(await timeToReady(browser, `${bareKoa.url}/`, (page) => page.waitForLoadState('load')));
      samples.login.push(await timeToReady(browser, `${server.url}/`, (page) => page.getByRole('button', { name: zhAuth.submit }).and(page.locator(':enabled')).waitFor()));
      samples.home.push(
        await timeToReady(
          browser,
          `${server.url}/`,
          (page) => Promise.all([page.getByText(zhHome.exams.none).waitFor(), page.getByText(zhHome.position.none).waitFor(), page.getByRole('link', { name: zhHome.notifications.more }).waitFor()]),
          token,
        ),
      );
    }
    const base = median(samples.baseline);
    const line = (label: string, values: number[]) => {
      const ms = median(values);
      console.log(`${label.padEnd(52)} ${ms.toFixed(0).padStart(5)} ms = ${(ms / base).toFixed(1)}x the baseline  [target < ${TARGET_MS} ms] ${ms < TARGET_MS ? 'ok' : 'MISSED'}`);
    };
    console.log(`baseline: Chromium loads bare Koa's JSON, median of ${ROUNDS}        ${base.toFixed(0).padStart(5)} ms`);
    line('login screen interactive (cold cache)', samples.login);
    line("employee's dashboard with its cards filled (cold cache)", samples.home);
  } finally {
    await browser.close();
    await server.close();
  }
}
