import { test } from 'node:test';
import assert from 'node:assert/strict';
import { externalUrl, openExternalUrl } from '../../main/external-links.js';

function recorder() {
  const opened: string[] = [];
  return { opened, open: (url: string) => void opened.push(url) };
}

test('opens plain http(s) URLs, normalised', async () => {
  const { opened, open } = recorder();
  assert.equal(await openExternalUrl('https://example.com', open), true);
  assert.equal(await openExternalUrl('HTTP://Example.com/a b?q=1#top', open), true);
  assert.deepEqual(opened, ['https://example.com/', 'http://example.com/a%20b?q=1#top']);
});

test('never hands hostile values to the operating system', async () => {
  const { opened, open } = recorder();
  for (const value of [
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    '\tjavascript:alert(1)',
    'java\nscript:alert(1)',
    'file:///C:/Windows/System32/calc.exe',
    'file:///etc/passwd',
    '\\\\attacker\\share\\run.exe',
    '//attacker.example/x',
    'smb://attacker/share',
    'ms-settings:privacy',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'mailto:someone@example.com',
    'https://user:secret@bank.example.com@attacker.example/',
    'https://bank.example.com@attacker.example/',
    '/relative/path',
    'https://',
    'https://' + 'a'.repeat(9000) + '.example/',
    '',
    undefined,
    null,
    42,
    { href: 'https://example.com' },
    ['https://example.com'],
  ]) {
    assert.equal(await openExternalUrl(value, open), false, String(value));
  }
  assert.deepEqual(opened, []);
});

test('a failure to open reaches the caller', async () => {
  await assert.rejects(
    openExternalUrl('https://example.com', () => Promise.reject(new Error('no browser'))),
    /no browser/,
  );
});

test('externalUrl keeps a ?next= target as data, not as the destination', () => {
  assert.equal(externalUrl('https://example.com/login?next=file:///etc/passwd'), 'https://example.com/login?next=file:///etc/passwd');
});
