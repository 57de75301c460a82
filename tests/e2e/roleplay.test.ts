// A whole role-play session in Chromium, in Chinese, with the scripted customer (no model): the 陪练 page, pick the
// scenario, three turns typed in the text box (the promise of 保本保收益 flagged beside its turn), finish, and the
// report with its score, criteria and practice cards. Needs renderer/dist and Debian's /usr/bin/chromium.
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { openSignedIn } from './signed-in.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { zh } from './i18n.js';
import { REP_LINES, SCENARIO, createScenario } from '../api/roleplay-fixtures.js';

describe('role-play in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  const browsers: Browser[] = [];
  let employee: { username: string };

  before(async () => {
    server = await startTestServer();
    await createScenario(server);
    employee = await server.user('employee', { full_name: '王小明' });
  });
  after(async () => {
    for (const b of browsers) await b.close();
    await server?.close();
  });

  test('a whole session: scenario, turns with a flag, the report', async () => {
    const { browser, page } = await openSignedIn(server, { username: employee.username });
    browsers.push(browser);
    await page.goto(`${server.url}/#/roleplay`);
    await page.getByRole('heading', { name: zh('roleplay.title') }).waitFor();
    await page.getByText(SCENARIO.title).waitFor();
    await page.getByRole('button', { name: zh('roleplay.start') }).click();
    const chat = page.getByTestId('roleplay-chat');
    await chat.getByText(SCENARIO.opening).waitFor();
    const box = page.getByRole('textbox', { name: zh('roleplay.placeholder') });
    const replies = [SCENARIO.objections[0]!, SCENARIO.objections[1]!, SCENARIO.closing];
    for (const [i, line] of REP_LINES.entries()) {
      await box.fill(line);
      await page.getByRole('button', { name: zh('roleplay.send') }).click();
      await chat.getByText(replies[i]!).waitFor();
    }
    await page.getByTestId('turn-3').getByText(zh('roleplay.flag', { rule: 'no_guarantee' })).waitFor();
    await page.getByRole('button', { name: zh('roleplay.finish') }).click();
    const report = page.getByTestId('roleplay-report');
    await report.getByText(zh('roleplay.report.passed')).waitFor();
    await report.getByText('告知冷静期').waitFor();
    await report.getByText(`“${REP_LINES[0]}”`).waitFor();
    await report.getByText(zh('roleplay.report.cards_other', { count: 2 })).waitFor();
  });
});
