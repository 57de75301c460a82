import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isInternalUrl } from '../../main/trusted-url.js';

const APP = 'http://127.0.0.1:3210';

test('accepts pages, assets and API paths on the app origin', () => {
  for (const url of [`${APP}/`, `${APP}/#/products/3`, `${APP}/assets/index-abc.js`, `${APP}/api/media/file/1?token=1.x`, 'HTTP://127.0.0.1:3210/']) {
    assert.equal(isInternalUrl(url, APP), true, url);
  }
  assert.equal(isInternalUrl(`${APP}/x`, `${APP}/some/path`), true, 'only the origin of appOrigin counts');
});

test('refuses everything else, including look-alikes', () => {
  for (const url of [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(document.domain)',
    ' javascript:alert(1)',
    'file:///etc/passwd',
    'file://127.0.0.1:3210/etc/passwd',
    '\\\\evil-host\\share\\payload.exe',
    '//evil.example/',
    'data:text/html,<script>alert(1)</script>',
    `blob:${APP}/0b1c2d`,
    `view-source:${APP}/`,
    'about:blank',
    'http://127.0.0.1:3211/',
    'http://127.0.0.1/',
    'https://127.0.0.1:3210/',
    'http://localhost:3210/',
    'http://127.0.0.1:3210@evil.example/',
    'http://user:pass@127.0.0.1:3210/',
    'http://127.0.0.1.evil.example:3210/',
    `https://evil.example/?next=${APP}/`,
    `https://evil.example/#${APP}`,
    '/products',
    '',
    'not a url',
  ]) {
    assert.equal(isInternalUrl(url, APP), false, url);
  }
});

test('refuses non-strings and a broken app origin', () => {
  for (const value of [undefined, null, 42, {}, [`${APP}/`], new URL(`${APP}/`)]) assert.equal(isInternalUrl(value, APP), false, String(value));
  assert.equal(isInternalUrl(`${APP}/`, ''), false);
  assert.equal(isInternalUrl('file:///a', 'file:///a'), false, 'a file: app origin makes nothing internal');
});
