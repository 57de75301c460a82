// The renderer's translations: both languages have the same areas and the same keys (plural forms aside), the
// same {{placeholders}} per key, every key the code names exists in both, and the built-ins' shipped texts are translated
// (contract/workbench.ts BUILTIN_TEXTS).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BUILTIN_TEXTS, SHIPPED_TEXTS, type ShippedKey } from '../../contract/workbench.js';
import type { Locale } from '../../contract/users.js';

const root = path.resolve(import.meta.dirname, '../../renderer/src');
const localesDir = path.join(root, 'i18n/locales');
const LANGUAGES = ['zh-CN', 'en'];
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree };

function areas(language: string): Record<string, Tree> {
  const dir = path.join(localesDir, language);
  return Object.fromEntries(fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => [f.slice(0, -5), JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Tree]));
}

/** Every leaf as `area.path.to.key` → its text. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(full, value);
    else for (const [k, v] of leaves(value, full)) out.set(k, v);
  }
  return out;
}

const resources = Object.fromEntries(LANGUAGES.map((l) => [l, leaves(areas(l))]));
/** Keys as code names them: a plural key `x_one`/`x_other` is `x`. */
const baseKeys = (language: string) => new Set([...resources[language]!.keys()].map((k) => k.replace(PLURAL, '')));
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('renderer translations', () => {
  test('every area exists in every language', () => {
    const [first, ...others] = LANGUAGES.map((l) => Object.keys(areas(l)).sort());
    for (const other of others) assert.deepEqual(other, first);
  });

  test('a key in one language is in the other (plural forms per language aside)', () => {
    const zh = baseKeys('zh-CN');
    const en = baseKeys('en');
    assert.deepEqual([...zh].filter((k) => !en.has(k)), [], 'in zh-CN, missing in en');
    assert.deepEqual([...en].filter((k) => !zh.has(k)), [], 'in en, missing in zh-CN');
  });

  test('plural keys have their "other" form, and translations keep the same placeholders', () => {
    for (const language of LANGUAGES) {
      const keys = resources[language]!;
      for (const key of keys.keys()) if (PLURAL.test(key)) assert.ok(keys.has(key.replace(PLURAL, '_other')), `${language}: ${key} without its _other form`);
    }
    const textOf = (language: string, key: string) => resources[language]!.get(key) ?? resources[language]!.get(`${key}_other`) ?? '';
    const mismatched = [...baseKeys('zh-CN')].filter((key) => placeholders(textOf('zh-CN', key)).join() !== placeholders(textOf('en', key)).join());
    assert.deepEqual(mismatched, [], 'keys whose {{placeholders}} differ between zh-CN and en');
  });

  test('every key the code names exists in both languages', () => {
    const areaNames = new Set(Object.keys(areas('zh-CN')));
    const used = new Map<string, string>();
    const prefixes = new Map<string, string>();
    for (const file of sourceFiles(root)) {
      const code = fs.readFileSync(file, 'utf8');
      // Any string literal shaped like a key of a known area: t('a.b'), label: 'a.b', zod messages, tables
      // (but not an object's property name: the error table's server codes, e.g. 'media.not_pending': …).
      for (const [, key] of code.matchAll(/['"`]([a-z][A-Za-z]*(?:\.[A-Za-z0-9_]+)+)['"`](?!\s*:)/g)) {
        if (areaNames.has(key!.split('.')[0]!)) used.set(key!, path.relative(root, file));
      }
      // Keys built from a template (`shell.groups.${group}`): their fixed part must name a group of keys.
      for (const [, prefix] of code.matchAll(/`([a-z][A-Za-z]*(?:\.[A-Za-z0-9_]+)*)\.\$\{/g)) {
        if (areaNames.has(prefix!.split('.')[0]!)) prefixes.set(prefix!, path.relative(root, file));
      }
    }
    assert.ok(used.size > 100, `found only ${used.size} keys in the code: is the scan broken?`);
    for (const language of LANGUAGES) {
      const keys = baseKeys(language);
      // A literal may also name a group of keys that the code completes (a model shelf's texts="speech.models").
      const isGroup = (key: string) => [...keys].some((k) => k.startsWith(`${key}.`));
      const missing = [...used].filter(([key]) => !keys.has(key) && !isGroup(key)).map(([key, file]) => `${key} (${file})`);
      assert.deepEqual(missing, [], `keys used in code but missing in ${language}`);
      const missingGroups = [...prefixes].filter(([prefix]) => ![...keys].some((k) => k.startsWith(`${prefix}.`))).map(([p, file]) => `${p}.* (${file})`);
      assert.deepEqual(missingGroups, [], `key groups used in code but missing in ${language}`);
    }
  });

  test('every built-in has its text in both languages, and the English text is the shipped one the app compares with', () => {
    assert.deepEqual(Object.keys(BUILTIN_TEXTS).sort(), [...LANGUAGES].sort());
    assert.equal(BUILTIN_TEXTS.en, SHIPPED_TEXTS, 'en shows the shipped texts themselves');
    for (const [key, shipped] of Object.entries(SHIPPED_TEXTS) as [ShippedKey, { name: string; description?: string }][]) {
      for (const language of LANGUAGES) {
        const text = BUILTIN_TEXTS[language as Locale][key];
        assert.ok(text?.name, `${language}: ${key} has no name`);
        assert.equal(text.description === undefined, shipped.description === undefined, `${language}: ${key} has a description exactly when the shipped text has one`);
      }
    }
  });
});
