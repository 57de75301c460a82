// A large upload from the page over a bad connection, in headless Chromium against the real server: a chunk whose
// connection drops once is sent again without the user noticing; one that keeps failing ends the upload with an
// error, and choosing the same file again sends only the chunks the server is missing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { skipWithoutChromium } from './browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Shell } from './page-models/shell.js';
import { CHUNK, downloadSha256 } from '../api/media-fixtures.js';
import { zh } from './i18n.js';
import { openSignedIn } from './signed-in.js';

const FILE_SIZE = 100 * 1024 * 1024 + 3 * CHUNK + 12_345; // over the direct-upload limit: 24 chunks
const CHUNK_COUNT = Math.ceil(FILE_SIZE / CHUNK);

describe('chunked upload from the page: retries and resume', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let employee: { username: string; token: string };
  let dir = '';
  let filePath = '';
  let fileSha256 = '';
  /** chunk_index of every chunk request that reached the route, in order. */
  let sent: number[] = [];

  const chunkIndexOf = (route: Route) => Number(/name="chunk_index"\r\n\r\n(\d+)/.exec(route.request().postDataBuffer()!.subarray(0, 4096).toString('latin1'))?.[1]);

  before(async () => {
    server = await startTestServer();
    employee = await server.user('employee');
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-e2e-upload-'));
    filePath = path.join(dir, 'induction-video.mp4');
    const data = crypto.randomBytes(FILE_SIZE);
    fileSha256 = crypto.createHash('sha256').update(data).digest('hex');
    await fs.writeFile(filePath, data);
    ({ browser, page } = await openSignedIn(server, { username: employee.username }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const form = () => page.getByRole('form', { name: zh('media.upload.title') });
  const startUpload = async () => {
    await form().getByLabel(zh('media.upload.file'), { exact: true }).setInputFiles(filePath);
    await form().getByRole('button', { name: zh('media.upload.submit'), exact: true }).click();
  };

  test('a dropped chunk is retried; one that keeps failing stops the upload with an error', async () => {
    const dropped = new Set<number>();
    await page.route('**/api/media/upload/chunk', async (route) => {
      const index = chunkIndexOf(route);
      sent.push(index);
      if (index === 2 && !dropped.has(2)) {
        dropped.add(2);
        return route.abort('connectionreset');
      }
      if (index === 9) return route.abort('connectionreset');
      return route.continue();
    });
    await new Shell(page).open('upload');
    await startUpload();
    await page.getByText(zh('media.upload.resumeHint')).waitFor({ timeout: 60_000 });
    assert.equal(sent.filter((i) => i === 2).length, 2, 'chunk 2 went again after its connection dropped');
    assert.equal(sent.filter((i) => i === 9).length, 4, 'chunk 9 was tried four times, then the upload stopped');
    await page.unroute('**/api/media/upload/chunk');
  });

  test('uploading the same file again sends only the missing chunks and completes it byte for byte', async () => {
    const uploadId = await page.evaluate(() => Object.values(JSON.parse(localStorage.getItem('trainbench.unfinished-uploads') ?? '{}'))[0] as string);
    const before = await server.api.get(`/api/media/upload/${uploadId}`, { token: employee.token });
    assert.equal(before.status, 200, before.text);
    const missing: number[] = before.body.data.missing;
    assert.ok(missing.includes(9) && missing.length < CHUNK_COUNT, `missing: ${missing.join(', ')}`);

    sent = [];
    await page.route('**/api/media/upload/chunk', (route) => {
      sent.push(chunkIndexOf(route));
      return route.continue();
    });
    await startUpload();
    await page.getByText(zh('media.upload.done', { name: 'induction-video.mp4' })).waitFor({ timeout: 60_000 });
    assert.deepEqual([...sent].sort((a, b) => a - b), missing);
    assert.equal(await page.evaluate(() => localStorage.getItem('trainbench.unfinished-uploads')), '{}', 'nothing left to resume');

    const mine = await server.api.get(`/api/media/upload/${uploadId}`, { token: employee.token });
    const mediaId = mine.body.data.media_id as number;
    const approved = await server.api.post(`/api/media/audit/${mediaId}`, { token: server.adminToken, body: { action: 'approve' } });
    assert.equal(approved.status, 200, approved.text);
    const preview = await server.api.get(`/api/media/preview/${mediaId}`, { token: employee.token });
    assert.deepEqual(await downloadSha256(server.url, preview.body.data.preview_url), { status: 200, sha256: fileSha256, bytes: FILE_SIZE });
  });
});
