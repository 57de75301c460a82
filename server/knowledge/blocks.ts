// The structured blocks of a knowledge-source file: `## Product: <name>` and `## Question` sections made of
// `- key: value` lines (format in docs/knowledge-format.md). Pure: database checks happen at ingestion.
import { ProductCreate, RISK_LEVEL_HINT, unrecognisedRiskLevel, type ProductInput } from '../products/products.schema.js';
import type { QuestionOption, QuestionType } from '../../contract/exams.js';
import { questionIssues, TRUE_FALSE_OPTIONS } from '../exams/questions.service.js';
import { QuestionCreate } from '../exams/exams.schema.js';

/** Domain of a source (and its questions) without a `domain:` in its front matter. */
export const DEFAULT_DOMAIN = 'company';

/** A problem at a line of the file (1-based, counted from the file's first line, front matter included). */
export class KnowledgeFormatError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'KnowledgeFormatError';
  }
}

export interface SourceLine {
  number: number;
  text: string;
}

export interface BlockLines {
  /** The heading line. */
  heading: SourceLine;
  lines: SourceLine[];
}

/** Something ingested as written that the reviewer should know about (the approval's `warnings`). */
export interface FormatWarning {
  line: number;
  problem: string;
}

export interface ParsedProduct {
  line: number;
  input: ProductInput & { name: string; code: string };
  /** Only when there is some. */
  warnings?: FormatWarning[];
}

export interface ParsedQuestion {
  line: number;
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
  answer: string[];
  explanation: string;
  course_id: number | null;
  /** Where course_id was given, for reporting a course that does not exist. */
  courseLine: number;
}

const LIST_ITEM = /^\s*[-*+][ \t]+(.*?)\s*$/;
const KEY_VALUE = /^([^:：]{1,100}?)[ \t]*[:：][ \t]*(.*)$/;
const OPTION = /^([A-Z])[ \t]*[.．、)）][ \t]*(.+)$/;

const normaliseKey = (key: string): string => key.trim().toLowerCase().replace(/[\s-]+/g, '_');

interface Field {
  value: string;
  line: number;
}

/** Collects `- key: value` lines by normalised key; a key given twice is an error. */
function addField(fields: Map<string, Field>, key: string, value: string, line: number): void {
  if (fields.has(key)) throw new KnowledgeFormatError(line, `"${key}" is given twice (first on line ${fields.get(key)!.line})`);
  fields.set(key, { value, line });
}

const PRODUCT_FIELDS = new Set(['code', 'name', 'category', 'status', 'summary', 'description', 'risk_level', 'commission_rate']);

function commissionRate(field: Field): number | null {
  const text = field.value.replace(/%$/, '').trim();
  if (!text) return null;
  const rate = Number(text);
  if (!Number.isFinite(rate)) throw new KnowledgeFormatError(field.line, `commission_rate must be a number (e.g. 1.5 or 1.5%), got "${field.value}"`);
  return rate;
}

/**
 * `## Product: <name>`: known keys become product fields, any other key an attribute; lines that are not list
 * items are prose that becomes the description when no `description` key is given.
 */
export function parseProduct(block: BlockLines, name: string): ParsedProduct {
  const fields = new Map<string, Field>();
  const attributes = new Map<string, Field>();
  const prose: string[] = [];
  for (const { number, text } of block.lines) {
    const item = LIST_ITEM.exec(text);
    if (!item) {
      if (text.trim()) prose.push(text.trim());
      continue;
    }
    const pair = KEY_VALUE.exec(item[1]!);
    if (!pair) throw new KnowledgeFormatError(number, `Expected "- key: value" in product "${name}", got "${text.trim()}"`);
    const key = normaliseKey(pair[1]!);
    addField(PRODUCT_FIELDS.has(key) ? fields : attributes, PRODUCT_FIELDS.has(key) ? key : pair[1]!.trim(), pair[2]!.trim(), number);
  }
  const code = fields.get('code');
  if (!code?.value) throw new KnowledgeFormatError(block.heading.number, `Product "${name}" has no "- code: …" line (products are matched by code)`);
  const input: Record<string, unknown> = { name: fields.get('name')?.value || name };
  for (const [key, field] of fields) if (key !== 'name') input[key] = key === 'commission_rate' ? commissionRate(field) : field.value;
  if (!fields.has('description') && prose.length) input.description = prose.join('\n');
  if (attributes.size) input.attributes = Object.fromEntries(Array.from(attributes, ([key, field]) => [key, field.value]));

  const parsed = ProductCreate.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    const line = (key === 'attributes' ? attributes.get(String(issue.path[1])) : fields.get(key))?.line ?? block.heading.number;
    throw new KnowledgeFormatError(line, `Product "${name}": ${issue.path.join('.') || 'value'} ${issue.message}`);
  }
  // A level nobody can read is kept as written (sources were free text before levels were checked): never a reason
  // to refuse the whole source, but the product then has no level for risk_match.
  const warnings: FormatWarning[] = [];
  if (unrecognisedRiskLevel(parsed.data.risk_level)) {
    warnings.push({ line: fields.get('risk_level')!.line, problem: `Product "${name}": risk_level "${parsed.data.risk_level}" is kept as written but names no level (it ${RISK_LEVEL_HINT}), so risk_match cannot check it` });
  }
  return { line: block.heading.number, input: { ...parsed.data, code: code.value }, ...(warnings.length ? { warnings } : {}) };
}

const QUESTION_TYPES: readonly QuestionType[] = ['single', 'multiple', 'true_false'];
const QUESTION_FIELDS = new Set(['type', 'stem', 'answer', 'explanation', 'course_id']);
const TRUE_WORDS = new Set(['true', 't', 'yes', '对', '正确', '是', '√']);
const FALSE_WORDS = new Set(['false', 'f', 'no', '错', '错误', '否', '×']);

/** "A, C", "A，C", "A C" or "AC". */
function choiceKeys(value: string): string[] {
  const keys = value.toUpperCase().split(/[\s,，、;；]+/).filter(Boolean);
  return keys.length === 1 && /^[A-Z]{2,}$/.test(keys[0]!) ? Array.from(keys[0]!) : keys;
}

function trueFalseKey(field: Field): string[] {
  const value = field.value.trim().toLowerCase();
  if (TRUE_WORDS.has(value)) return ['true'];
  if (FALSE_WORDS.has(value)) return ['false'];
  throw new KnowledgeFormatError(field.line, `a true_false answer is true or false, got "${field.value}"`);
}

function courseId(field: Field | undefined): number | null {
  if (!field?.value) return null;
  if (!/^\d{1,9}$/.test(field.value) || Number(field.value) < 1) throw new KnowledgeFormatError(field.line, `course_id must be a positive integer, got "${field.value}"`);
  return Number(field.value);
}

function readQuestionLines(block: BlockLines): { fields: Map<string, Field>; options: QuestionOption[]; optionLines: number[] } {
  const fields = new Map<string, Field>();
  const options: QuestionOption[] = [];
  const optionLines: number[] = [];
  for (const { number, text } of block.lines) {
    if (!text.trim()) continue;
    const item = LIST_ITEM.exec(text);
    const option = item && OPTION.exec(item[1]!);
    const pair = item && !option && KEY_VALUE.exec(item[1]!);
    if (option) {
      options.push({ key: option[1]!, text: option[2]!.trim() });
      optionLines.push(number);
    } else if (pair && QUESTION_FIELDS.has(normaliseKey(pair[1]!))) {
      addField(fields, normaliseKey(pair[1]!), pair[2]!.trim(), number);
    } else {
      throw new KnowledgeFormatError(number, `Unexpected line in a question: "${text.trim()}" (expected - type:, - stem:, options like - A. text, - answer:, - explanation:, - course_id:)`);
    }
  }
  return { fields, options, optionLines };
}

/** `## Question`: type, stem, options `- A. …` (not for true_false), answer and an optional explanation and course_id. */
export function parseQuestion(block: BlockLines): ParsedQuestion {
  const at = block.heading.number;
  const { fields, options, optionLines } = readQuestionLines(block);
  const typeField = fields.get('type');
  if (!typeField) throw new KnowledgeFormatError(at, 'A question needs "- type: single|multiple|true_false"');
  const type = typeField.value.toLowerCase() as QuestionType;
  if (!QUESTION_TYPES.includes(type)) throw new KnowledgeFormatError(typeField.line, `type must be single, multiple or true_false, got "${typeField.value}"`);
  const stem = (fields.get('stem')?.value ?? '').replace(/\s+/g, ' ');
  if (!stem) throw new KnowledgeFormatError(fields.get('stem')?.line ?? at, 'A question needs a non-empty "- stem: …"');
  const answerField = fields.get('answer');
  if (!answerField) throw new KnowledgeFormatError(at, 'A question needs "- answer: …"');

  if (type === 'true_false' && options.length) throw new KnowledgeFormatError(optionLines[0]!, 'A true_false question has no options: its answer is true or false');
  const answer = type === 'true_false' ? trueFalseKey(answerField) : choiceKeys(answerField.value);
  const finalOptions = type === 'true_false' ? TRUE_FALSE_OPTIONS : options;
  const course = fields.get('course_id');
  const question = { type, stem, options: finalOptions, answer, explanation: fields.get('explanation')?.value ?? '', course_id: courseId(course) };
  assertValidQuestion(question, (path) => (path[0] === 'options' ? (optionLines[Number(path[1])] ?? optionLines[0]) : fields.get(String(path[0]))?.line) ?? at);
  return { ...question, line: at, courseLine: course?.line ?? at };
}

/** The question bank's own field limits and rules (option count, answer keys, one answer unless multiple). */
function assertValidQuestion(question: Omit<ParsedQuestion, 'line' | 'courseLine'>, lineOf: (path: PropertyKey[]) => number): void {
  const parsed = QuestionCreate.safeParse({ ...question, domain: DEFAULT_DOMAIN });
  const zodIssue = parsed.error?.issues[0];
  if (zodIssue) throw new KnowledgeFormatError(lineOf(zodIssue.path), `${zodIssue.path.join('.')}: ${zodIssue.message}`);
  const issue = questionIssues(question)[0];
  if (issue) throw new KnowledgeFormatError(lineOf([issue.path]), issue.message);
}
