// Knowledge packs through the admin screens, in headless Chromium against two real servers: the head office exports
// everything approved, a branch imports the downloaded file (untrusted, then trusted), and a damaged copy is refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { zh } from './i18n.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';

describe('knowledge packs from one install to another in Chromium', { skip: skipWithoutChromium }, () => {
  let office: TestServer;
  let branch: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  let dir = '';
  let packPath = '';
  const suffix = crypto.randomBytes(3).toString('hex');
  const title = `Branch opening hours ${suffix}`;
  const mediaName = `welcome-${suffix}.txt`;

  const openAsAdmin = async (server: TestServer) => {
    await page.goto(`${server.url}/`);
    await new LoginPage(page).logIn('admin', ADMIN_PASSWORD);
    await new Shell(page).open('packs');
  };

  before(async () => {
    assertRendererBuilt();
    [office, branch] = await Promise.all([startTestServer(), startTestServer()]);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-e2e-packs-'));
    await fs.mkdir(office.config.knowledgeDir, { recursive: true });
    await fs.writeFile(path.join(office.config.knowledgeDir, `hours-${suffix}.md`), `---\ntitle: ${title}\n---\n\nBranches open at nine.\n`);
    const scan = await office.api.post('/api/knowledge/scan', { token: office.adminToken });
    const sourceId = scan.body.data.results.find((r: { file_path: string }) => r.file_path === `hours-${suffix}.md`).source_id;
    assert.equal((await office.api.post(`/api/knowledge/audit/${sourceId}`, { token: office.adminToken, body: { action: 'approve' } })).status, 200);
    const form = new FormData();
    form.set('file', new Blob(['Welcome to the branch.']), mediaName);
    const media = await office.api.post('/api/media/upload', { token: office.adminToken, form });
    assert.equal((await office.api.post(`/api/media/audit/${media.body.data.id}`, { token: office.adminToken, body: { action: 'approve' } })).status, 200);
    ({ browser, page, pageErrors } = await openBrowser({ acceptDownloads: true }));
  });

  after(async () => {
    await browser?.close();
    await Promise.all([office?.close(), branch?.close()]);
    await fs.rm(dir, { recursive: true, force: true });
  });

  test('the head office shows its key and exports everything approved as one file', async () => {
    await openAsAdmin(office);
    const key = (await office.api.get('/api/knowledge-packs/key', { token: office.adminToken })).body.data;
    await page.getByLabel(zh('packs.key.fingerprint')).getByText(key.fingerprint).waitFor();
    await expectAccessible(page, 'knowledge packs');
    await snap(page, 'admin-packs', '01-packs-zh');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: zh('packs.export.start') }).click();
    const file = await download;
    assert.match(file.suggestedFilename(), /^trainbench-pack-.+\.tgz$/);
    packPath = path.join(dir, file.suggestedFilename());
    await file.saveAs(packPath);
    assert.ok((await fs.stat(packPath)).size > 0);
  });

  test('a branch imports it: untrusted items wait for review, a trusted key approves them, a damaged copy is refused', async () => {
    await new Shell(page).logOut();
    await openAsAdmin(branch);
    const importForm = page.getByRole('form', { name: zh('packs.import.form') });
    await importForm.getByLabel(zh('packs.import.file')).setInputFiles(packPath);
    await importForm.getByRole('button', { name: zh('packs.import.start'), exact: true }).click();
    const key = (await office.api.get('/api/knowledge-packs/key', { token: office.adminToken })).body.data;
    await page.getByText(zh('packs.import.untrusted', { fingerprint: key.fingerprint })).waitFor();
    const items = page.getByRole('table', { name: zh('packs.import.items') });
    await items.getByRole('row').filter({ hasText: title }).getByText(zh('media.review.status.pending')).waitFor();
    await items.getByRole('row').filter({ hasText: mediaName }).getByText(zh('media.review.status.pending')).waitFor();
    await snap(page, 'admin-packs', '02-import-untrusted-zh');

    const trust = await branch.api.put('/api/system/config', { token: branch.adminToken, body: { configs: { trusted_pack_keys: [key.fingerprint] } } });
    assert.equal(trust.status, 200, trust.text);
    await importForm.getByRole('button', { name: zh('packs.import.start'), exact: true }).click();
    await page.getByText(zh('packs.import.trusted', { fingerprint: key.fingerprint })).waitFor();
    await items.getByRole('row').filter({ hasText: mediaName }).getByText(zh('packs.import.change.unchanged')).waitFor();
    const media = await branch.api.get('/api/media/audit-list?status=approved', { token: branch.adminToken });
    assert.ok(media.body.data.items.some((m: { filename: string }) => m.filename === mediaName), 'trusted: the pending media were approved');

    const damaged = Buffer.from(await fs.readFile(packPath));
    damaged[Math.floor(damaged.length / 2)]! ^= 0xff;
    await importForm.getByLabel(zh('packs.import.file')).setInputFiles({ name: 'damaged.tgz', mimeType: 'application/gzip', buffer: damaged });
    await importForm.getByRole('button', { name: zh('packs.import.start'), exact: true }).click();
    await page.getByText(zh('errors.pack_invalid')).waitFor();
  });

  test('no script errors or failed requests but the refused pack', () => {
    assert.deepEqual(pageErrors.filter((e) => !/^400 \/api\/knowledge-packs\/import$|status of 400/.test(e)), []);
  });
});
