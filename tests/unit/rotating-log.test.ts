import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { RotatingFile, generationPath } from '../../server/log/rotating-file.js';
import { fileLogger } from '../../server/log/logger.js';

test('a log file is rotated by size and keeps only the configured generations', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-log-'));
  try {
    const file = path.join(dir, 'logs', 'server.log');
    const log = new RotatingFile(file, { maxBytes: 100, generations: 2 });
    for (let i = 0; i < 10; i++) log.append(`line ${i} ${'x'.repeat(40)}\n`);
    assert.deepEqual((await fs.readdir(path.dirname(file))).sort(), ['server.1.log', 'server.2.log', 'server.log']);
    for (const n of [0, 1, 2]) assert.ok((await fs.stat(generationPath(file, n))).size <= 100);
    assert.match(await fs.readFile(file, 'utf8'), /^line 8 .*\nline 9 /, 'the newest lines are in the current file');
    assert.match(await fs.readFile(generationPath(file, 2), 'utf8'), /^line 4 /, 'older lines moved down; the oldest were dropped');

    // A new writer (the next start) continues the current file and rotates at the same size.
    const again = new RotatingFile(file, { maxBytes: 100, generations: 2 });
    again.append('after restart\n');
    assert.match(await fs.readFile(generationPath(file, 1), 'utf8'), /^line 8 /);
    assert.equal(await fs.readFile(file, 'utf8'), 'after restart\n');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('log lines carry time, level, message and an error\'s stack; the file is private to the user', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-log-'));
  try {
    const log = fileLogger(path.join(dir, 'main.log'));
    log.info('started', { port: 3210 });
    log.error('the server process stopped', new Error('boom'));
    const text = await fs.readFile(log.file, 'utf8');
    assert.match(text, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO  started \{ port: 3210 \}\n/);
    assert.match(text, /\n\S+ ERROR the server process stopped Error: boom\n\s+at /);
    if (process.platform !== 'win32') assert.equal((await fs.stat(log.file)).mode & 0o077, 0);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
