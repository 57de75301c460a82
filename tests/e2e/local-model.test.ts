// An admin turns a GGUF file on the laptop into the coach's model in Chromium, and the coach says its answer ran on
// this computer: the tiny GGUF model of tests/support runs through the real node-llama-cpp worker.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { assertRendererBuilt, openBrowser, skipWithoutChromium } from './browser.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js';
import { writeTinyLlamaModel } from '../support/tiny-llama-model.js';
import { LoginPage } from './page-models/login-page.js';
import { Shell } from './page-models/shell.js';
import { addLocalRoute, ModelRoutesPage } from './page-models/ai-pages.js';
import { zh } from './i18n.js';
import { expectAccessible } from './axe.js';
import { snap } from './screenshots.js';

const JOURNEY = 'local-model';
const FILE = 'tiny-chat.gguf';

describe('a local model answers the coach in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];

  before(async () => {
    assertRendererBuilt();
    server = await startTestServer();
    await fs.mkdir(path.join(server.dataDir, 'models'), { recursive: true });
    await writeTinyLlamaModel(path.join(server.dataDir, 'models', FILE));
    const res = await server.api.put('/api/system/config', { token: server.adminToken, body: { configs: { local_llm_max_tokens: 12 } } });
    assert.equal(res.status, 200, res.text);
    ({ browser, page, pageErrors } = await openBrowser());
    await page.goto(`${server.url}/`);
    await new LoginPage(page).logIn('admin', ADMIN_PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the installed file is listed with its metadata and becomes a local model route', async () => {
    await new Shell(page).open('modelRoutes');
    const files = page.getByRole('table', { name: zh('ai.localModels.models.title') });
    const file = files.getByRole('row').filter({ hasText: FILE });
    await file.getByText('llama', { exact: true }).waitFor();
    await file.getByText('F32', { exact: true }).waitFor();

    await addLocalRoute(page, { newButton: zh('ai.routes.new'), kind: zh('ai.routes.localModel'), name: '这台电脑', file: FILE });

    const route = new ModelRoutesPage(page).row('这台电脑');
    await route.getByText(zh('ai.routes.localModel')).waitFor();
    await route.getByText(/可运行 · 约需/).waitFor();
    await expectAccessible(page, 'the model routes page with a local model');
    await snap(page, JOURNEY, '01-local-route');
  });

  test('the coach answers from it and says so', async () => {
    await new Shell(page).open('coach');
    const composer = page.getByRole('form', { name: zh('coach.composer') });
    await composer.getByLabel(zh('coach.message')).fill('怎么介绍这个基金？');
    await composer.getByRole('button', { name: zh('coach.send') }).click();
    await page.getByText(zh('coach.ranLocally')).waitFor();
    await snap(page, JOURNEY, '02-coach-local');
    assert.deepEqual(pageErrors, []);
  });
});
