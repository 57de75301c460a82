// A knowledge-source file (docs/knowledge-format.md): optional YAML front matter, `## Product: …` and
// `## Question` blocks, and prose. Parsing is pure and reports problems with their line number.
import { createRequire } from 'node:module';
import { DEFAULT_DOMAIN, KnowledgeFormatError, parseProduct, parseQuestion, type BlockLines, type ParsedProduct, type ParsedQuestion, type SourceLine } from './blocks.js';

// yaml is loaded on the first front matter read (some 40 ms of module loading that a server start need not pay).
let yaml: typeof import('yaml') | undefined;
const parseDocument = (source: string) => (yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml')).parseDocument(source);

const DOMAIN = /^[A-Za-z0-9_.-]{1,100}$/;

export interface SourceMeta {
  title: string;
  domain: string;
}

export interface ParsedSource extends SourceMeta {
  products: ParsedProduct[];
  questions: ParsedQuestion[];
  /** Everything but the front matter and the question blocks (which would give answers away), for chunking. */
  prose: string;
}

const FRONT_MATTER_END = /^(?:---|\.\.\.)[ \t]*$/;
const H1 = /^ {0,3}#[ \t]+(.+?)[ \t#]*$/;
const ANY_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const PRODUCT_HEADING = /^ {0,3}##[ \t]+Product[ \t]*[:：][ \t]*(.*?)[ \t#]*$/i;
const QUESTION_HEADING = /^ {0,3}##[ \t]+Question\b/i;
const FENCE = /^ {0,3}(?:```|~~~)/;

interface FrontMatter {
  title?: string;
  domain?: string;
  /** Index of the first line after the front matter. */
  bodyStart: number;
}

function frontMatter(lines: string[]): FrontMatter {
  if (lines[0]?.trim() !== '---') return { bodyStart: 0 };
  const end = lines.findIndex((line, i) => i > 0 && FRONT_MATTER_END.test(line));
  if (end < 0) throw new KnowledgeFormatError(1, 'The front matter that starts on line 1 has no closing "---" line');
  const doc = parseDocument(lines.slice(1, end).join('\n'));
  const error = doc.errors[0];
  if (error) throw new KnowledgeFormatError(1 + (error.linePos?.[0]?.line ?? 1), `Invalid YAML front matter: ${error.message.split('\n')[0]}`);
  let value: unknown;
  try {
    // yaml refuses aliases that would multiply into a huge value ("Excessive alias count…").
    value = doc.toJS();
  } catch (err) {
    throw new KnowledgeFormatError(2, `Invalid YAML front matter: ${(err as Error).message}`);
  }
  if (value === null || value === undefined) return { bodyStart: end + 1 };
  if (typeof value !== 'object' || Array.isArray(value)) throw new KnowledgeFormatError(2, 'The front matter must be "key: value" lines');
  const keyLine = (key: string) => 1 + (lines.slice(1, end).findIndex((line) => line.startsWith(`${key}:`)) + 1 || 1);
  const { title, domain } = value as Record<string, unknown>;
  if (title !== undefined && title !== null && (typeof title === 'object' || !String(title).trim() || String(title).length > 500)) {
    throw new KnowledgeFormatError(keyLine('title'), 'title must be a non-empty text of at most 500 characters');
  }
  if (domain !== undefined && domain !== null && !DOMAIN.test(String(domain))) {
    throw new KnowledgeFormatError(keyLine('domain'), 'domain must be a name of letters, digits, "_", "-" or "." (e.g. company, product)');
  }
  return { title: title == null ? undefined : String(title).trim(), domain: domain == null ? undefined : String(domain), bodyStart: end + 1 };
}

const clipTitle = (title: string): string => title.slice(0, 500);

const fileLines = (text: string): string[] => text.replace(/^\uFEFF/, '').split(/\r\n?|\n/);

/** Title and domain only (for the scan, which must not fail on a file that approve would reject). */
export function readSourceMeta(text: string, fallbackTitle: string): SourceMeta {
  const lines = fileLines(text);
  let meta: FrontMatter;
  try {
    meta = frontMatter(lines);
  } catch {
    meta = { bodyStart: 0 };
  }
  const h1 = lines.slice(meta.bodyStart).find((line) => H1.test(line));
  return { title: clipTitle(meta.title ?? (h1 ? H1.exec(h1)![1]! : fallbackTitle)), domain: meta.domain ?? DEFAULT_DOMAIN };
}

interface Block extends BlockLines {
  kind: 'product' | 'question';
  name: string;
}

/** Parses the whole file; throws KnowledgeFormatError at the first malformed block. */
export function parseKnowledgeSource(text: string, fallbackTitle: string): ParsedSource {
  const lines = fileLines(text);
  const meta = frontMatter(lines);
  const blocks: Block[] = [];
  const prose: string[] = [];
  let title = meta.title;
  let block: Block | null = null;
  let inFence = false;
  for (let i = meta.bodyStart; i < lines.length; i++) {
    const line: SourceLine = { number: i + 1, text: lines[i]! };
    if (FENCE.test(line.text)) inFence = !inFence;
    if (!inFence && ANY_HEADING.test(line.text)) {
      block = null;
      const product = PRODUCT_HEADING.exec(line.text);
      if (product) {
        if (!product[1]) throw new KnowledgeFormatError(line.number, 'A product heading needs a name: "## Product: <name>"');
        block = { kind: 'product', name: product[1], heading: line, lines: [] };
      } else if (QUESTION_HEADING.test(line.text)) {
        block = { kind: 'question', name: '', heading: line, lines: [] };
      } else {
        title ??= H1.exec(line.text)?.[1];
      }
      if (block) blocks.push(block);
      if (block?.kind === 'question') continue;
    } else if (block) {
      block.lines.push(line);
      if (block.kind === 'question') continue;
    }
    prose.push(line.text);
  }

  const products: ParsedProduct[] = [];
  const questions: ParsedQuestion[] = [];
  for (const b of blocks) {
    if (b.kind === 'product') products.push(parseProduct(b, b.name));
    else questions.push(parseQuestion(b));
  }
  assertUnique(products, (p) => p.input.code, 'product code');
  assertUnique(questions, (q) => q.stem, 'question stem');
  return { title: clipTitle(title ?? fallbackTitle), domain: meta.domain ?? DEFAULT_DOMAIN, products, questions, prose: prose.join('\n') };
}

function assertUnique<T extends { line: number }>(items: T[], keyOf: (item: T) => string, what: string): void {
  const first = new Map<string, number>();
  for (const item of items) {
    const key = keyOf(item);
    const earlier = first.get(key);
    if (earlier !== undefined) throw new KnowledgeFormatError(item.line, `Duplicate ${what} "${key.slice(0, 80)}" (first on line ${earlier})`);
    first.set(key, item.line);
  }
}
