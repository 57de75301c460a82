// Every error code the server can send has a message in Chinese and in English (issue 25): the codes are read from
// the contract's *ErrorCode tables and from the server's sources (literal codes given to AppError, the error helpers
// and job errors), then looked up in the renderer's one table (renderer/src/i18n/error-codes.ts) and in both
// languages' errors.json. A new code without a translation fails here.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { errorKeyOf } from '../../renderer/src/i18n/error-codes.js';

const root = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `{ name: 'value', … }` of every `export const XErrorCode = {…}` in the contract and the server, by table name. */
function codeTables(files: string[]): Map<string, Map<string, string>> {
  const tables = new Map<string, Map<string, string>>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/export const (\w*ErrorCode) = \{([\s\S]*?)\}( as const)?;/g)) {
      const entries = new Map([...match[2]!.matchAll(/(\w+):\s*'([^']+)'/g)].map((m) => [m[1]!, m[2]!]));
      tables.set(match[1]!, entries);
    }
  }
  return tables;
}

const CODE = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)?$/;

/** Codes the server's sources can send: table entries they use, and literal codes where an error is made. */
function serverCodes(): Set<string> {
  const files = [...sources(path.join(root, 'server')), ...sources(path.join(root, 'contract'))];
  const tables = codeTables(files);
  const codes = new Set<string>();
  for (const entries of tables.values()) for (const code of entries.values()) codes.add(code);
  for (const file of sources(path.join(root, 'server'))) {
    const text = fs.readFileSync(file, 'utf8');
    const literals = [
      ...text.matchAll(/new AppError\(\s*\d+,\s*'([^']+)'/g),
      // badRequest(message, details, 'code') and the like
      ...text.matchAll(/\b(?:badRequest|conflict|forbidden)\([^;]*?,\s*'([a-z][a-z0-9_.]*)'\s*\)/g),
      // job errors stored as {status, code, message}
      ...text.matchAll(/\bstatus:\s*\d{3},\s*code:\s*'([^']+)'/g),
      ...text.matchAll(/\bcode:\s*'([a-z][a-z0-9_]*\.[a-z0-9_]+)'/g),
    ].map((m) => m[1]!);
    for (const code of literals) if (CODE.test(code)) codes.add(code);
  }
  return codes;
}

type Tree = { [key: string]: string | Tree };
const errorsJson = (language: string): Tree => JSON.parse(fs.readFileSync(path.join(root, 'renderer/src/i18n/locales', language, 'errors.json'), 'utf8')) as Tree;
const lookup = (tree: Tree, dotted: string): string | undefined => {
  let node: string | Tree | undefined = tree;
  for (const part of dotted.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
};

describe('server error codes in the renderer', () => {
  const codes = serverCodes();

  test('the scan finds the codes it should (it would pass vacuously otherwise)', () => {
    for (const code of ['not_found', 'validation_failed', 'exam.attempts_exhausted', 'exam.window_closed', 'audio.job_interrupted', 'internal_error']) {
      assert.ok(codes.has(code), code);
    }
    assert.ok(codes.size > 60, `only ${codes.size} codes found`);
  });

  test('every code has a message in Chinese and in English', () => {
    const zh = errorsJson('zh-CN');
    const en = errorsJson('en');
    const missing: string[] = [];
    for (const code of [...codes].sort()) {
      const key = errorKeyOf(code);
      if (!key) {
        missing.push(`${code}: not in renderer/src/i18n/error-codes.ts`);
        continue;
      }
      const name = key.replace(/^errors\./, '');
      if (!lookup(zh, name)) missing.push(`${code}: ${key} missing in zh-CN/errors.json`);
      if (!lookup(en, name)) missing.push(`${code}: ${key} missing in en/errors.json`);
    }
    assert.deepEqual(missing, []);
  });

  test('a missing speech route names the screen where an admin adds one, and tells the rep what to do', () => {
    const zh = errorsJson('zh-CN');
    const key = errorKeyOf('no_model_route', { route_kind: 'audio', attempts: [] });
    assert.equal(key, 'errors.no_speech_route');
    const text = lookup(zh, key!.replace(/^errors\./, ''))!;
    assert.match(text, /管理 → 智能助手 → 语音转写与模型/);
    assert.match(text, /重试/);
    assert.equal(errorKeyOf('no_model_route'), 'errors.no_model_route', 'a chat route keeps its own message');
    assert.match(fs.readFileSync(path.join(root, 'server/audio/transcribe.service.ts'), 'utf8'), /route_kind: 'audio'/);
  });

  test('Chinese messages are Chinese', () => {
    const zh = errorsJson('zh-CN');
    for (const code of codes) {
      const key = errorKeyOf(code);
      const text = key && lookup(zh, key.replace(/^errors\./, ''));
      if (text) assert.match(text, /[\u4e00-\u9fff]/, `${code}: ${text}`);
    }
  });
});
