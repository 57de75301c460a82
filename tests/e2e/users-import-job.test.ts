// Issue 34 in Chromium: an admin imports a users file longer than USER_IMPORT_JOB_ROWS; the dialog follows the job
// with a progress bar, then shows the same result as a short import (the count and the initial passwords, once).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Shell } from './page-models/shell.js';
import { zh } from './i18n.js';
import { openSignedIn } from './signed-in.js';
import { USER_IMPORT_JOB_ROWS } from '../../contract/imports.js';

describe('a long users import in Chromium: progress, then the result', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];

  before(async () => {
    server = await startTestServer();
    ({ browser, page, pageErrors } = await openSignedIn(server));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test(`${USER_IMPORT_JOB_ROWS + 100} rows: checked, imported as a job with a progress bar, then the passwords once`, async () => {
    const count = USER_IMPORT_JOB_ROWS + 100;
    const tag = crypto.randomBytes(3).toString('hex');
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('用户');
    sheet.addRow(['用户名', '姓名', '部门', '岗位', '角色']);
    for (let i = 0; i < count; i++) sheet.addRow([`ui${tag}_${i}`, `界面用户${i}`, '培训部', '理财经理', '员工']);
    const buffer = Buffer.from(await book.xlsx.writeBuffer());

    await new Shell(page).open('users');
    await page.getByRole('button', { name: zh('integrity.imports.users.title') }).click();
    const dialog = page.getByRole('dialog', { name: zh('integrity.imports.users.title') });
    await dialog.getByLabel(zh('integrity.imports.file')).setInputFiles({ name: 'users.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
    await dialog.getByRole('button', { name: zh('integrity.imports.check') }).click();
    await dialog.getByText(zh('integrity.imports.ready', { count }), { exact: true }).waitFor();
    const progressSeen = page.waitForSelector(`[role="progressbar"][aria-label="${zh('integrity.imports.progress')}"]`, { timeout: 60_000 }).then(() => true);
    await dialog.getByRole('button', { name: zh('integrity.imports.run', { count }) }).click();
    assert.ok(await progressSeen, 'the progress bar shows while the job runs');
    await dialog.getByText(zh('integrity.imports.users.imported', { count }), { exact: true }).waitFor({ timeout: 120_000 });
    const passwords = dialog.getByRole('table', { name: zh('integrity.imports.users.passwords') });
    await passwords.getByText(`ui${tag}_0`, { exact: true }).waitFor();
    assert.equal(await dialog.getByRole('progressbar').count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
