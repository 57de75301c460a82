// The interface's own texts, read from the renderer's resource files: page models find elements by role and by
// the label a person sees, in Chinese by default (`zh('shell.nav.products')`), without copying the strings here.
// A missing key throws, so a renamed key fails the test that uses it.
import fs from 'node:fs';
import path from 'node:path';

type Tree = { [key: string]: string | Tree };
export type Language = 'zh-CN' | 'en';

const localesDir = path.resolve(import.meta.dirname, '../../renderer/src/i18n/locales');

function load(language: Language): Tree {
  const dir = path.join(localesDir, language);
  return Object.fromEntries(fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => [f.slice(0, -5), JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Tree]));
}

const resources: Record<Language, Tree> = { 'zh-CN': load('zh-CN'), en: load('en') };

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** The text of `key` in `language`, with {{params}} filled in and i18next's plural forms (`_one`, `_other`) chosen by `count`. */
export function text(language: Language, key: string, params: Record<string, string | number> = {}): string {
  const tree = resources[language];
  const plural = typeof params.count === 'number' ? lookup(tree, `${key}_${new Intl.PluralRules(language).select(params.count)}`) ?? lookup(tree, `${key}_other`) : undefined;
  const template = plural ?? lookup(tree, key);
  if (template === undefined) throw new Error(`no text for ${key} in ${language}`);
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

export const zh = (key: string, params?: Record<string, string | number>) => text('zh-CN', key, params);
export const en = (key: string, params?: Record<string, string | number>) => text('en', key, params);
