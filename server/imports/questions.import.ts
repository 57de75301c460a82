// Questions from Excel: one row per question (题型, 题干, 选项A…选项H, 答案, 解析, 领域, 课程), checked like a question
// created by hand (questions.service), written all together or not at all.
import type { Db } from '../db/knex.js';
import type { QuestionOption, QuestionType } from '../../contract/exams.js';
import type { BulkImportRowError, QuestionImportReport } from '../../contract/imports.js';
import { validationFailed } from '../http/errors.js';
import { QuestionCreate } from '../exams/exams.schema.js';
import { createQuestion, questionIssues, TRUE_FALSE_OPTIONS } from '../exams/questions.service.js';
import { assertXlsx, fieldOf, readXlsxRows, templateWorkbook, type SourceRow } from './xlsx-rows.js';
import { MAX_IMPORT_ROWS } from './users.import.js';

const OPTION_KEYS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];

const ALIASES: Record<string, string> = {
  type: 'type', 题型: 'type', 类型: 'type',
  stem: 'stem', 题干: 'stem', 题目: 'stem',
  answer: 'answer', 答案: 'answer', 正确答案: 'answer',
  explanation: 'explanation', 解析: 'explanation',
  domain: 'domain', 领域: 'domain', 题库: 'domain',
  course: 'course', course_id: 'course', 课程: 'course',
  ...Object.fromEntries(OPTION_KEYS.flatMap((k) => [[`选项${k}`, `option_${k}`], [`选项 ${k}`, `option_${k}`], [`option_${k.toLowerCase()}`, `option_${k}`], [k.toLowerCase(), `option_${k}`]])),
};

const TYPES: Record<string, QuestionType> = {
  single: 'single', 单选: 'single', 单选题: 'single',
  multiple: 'multiple', 多选: 'multiple', 多选题: 'multiple',
  true_false: 'true_false', 判断: 'true_false', 判断题: 'true_false',
};
const TRUE_WORDS = new Set(['true', '正确', '对', '是', '√', 't', 'y', 'yes']);
const FALSE_WORDS = new Set(['false', '错误', '错', '否', '×', 'x', 'f', 'n', 'no']);

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value).trim());

/** The answer cell as option keys: "B", "A,C", "A、C", "AC"; for true/false 正确/错误 (or true/false, 对/错). */
function answerKeys(type: QuestionType, raw: string): string[] {
  if (type === 'true_false') {
    const word = raw.toLowerCase();
    return TRUE_WORDS.has(word) ? ['true'] : FALSE_WORDS.has(word) ? ['false'] : [raw];
  }
  const upper = raw.toUpperCase();
  const parts = /[,，、;；\s]/.test(upper) ? upper.split(/[,，、;；\s]+/) : [...upper];
  return parts.map((p) => p.trim()).filter(Boolean);
}

interface Course {
  id: number;
  title: string;
}

function courseOf(raw: string, courses: Course[]): number | null | undefined {
  if (!raw) return null;
  const byId = /^\d+$/.test(raw) ? courses.find((c) => c.id === Number(raw)) : undefined;
  return (byId ?? courses.find((c) => c.title === raw))?.id;
}

type Prepared = { row: number; input: ReturnType<typeof QuestionCreate.parse> };

function prepare({ row, values }: SourceRow, courses: Course[], errors: BulkImportRowError[]): Prepared | undefined {
  const fields: Record<string, string> = {};
  for (const [header, value] of Object.entries(values)) {
    const field = fieldOf(ALIASES, header);
    if (field) fields[field] = text(value);
  }
  const type = TYPES[(fields.type ?? '').toLowerCase()];
  if (!type) {
    errors.push({ row, field: 'type', code: fields.type ? 'invalid_question_type' : 'required', error: 'type must be single (单选), multiple (多选) or true_false (判断)', value: fields.type });
    return undefined;
  }
  const options: QuestionOption[] =
    type === 'true_false' ? TRUE_FALSE_OPTIONS : OPTION_KEYS.flatMap((key) => (fields[`option_${key}`] ? [{ key, text: fields[`option_${key}`]! }] : []));
  const course_id = courseOf(fields.course ?? '', courses);
  if (course_id === undefined) {
    errors.push({ row, field: 'course', code: 'unknown_course', error: `course "${fields.course}" does not exist`, value: fields.course });
    return undefined;
  }
  const candidate = { domain: fields.domain ?? '', course_id, type, stem: fields.stem ?? '', options, answer: answerKeys(type, fields.answer ?? ''), explanation: fields.explanation ?? '' };
  if (!fields.answer) candidate.answer = [];
  const parsed = QuestionCreate.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      const empty = field === 'answer' || (issue.code === 'too_small' && candidate[field as keyof typeof candidate] === '');
      errors.push({ row, field: field || undefined, code: empty ? 'required' : issue.code === 'too_big' ? 'too_big' : 'invalid', error: `${field}: ${issue.message}` });
    }
    return undefined;
  }
  const issues = questionIssues({ type, options, answer: parsed.data.answer });
  if (issues.length) {
    for (const issue of issues) errors.push({ row, field: issue.path, code: issue.path === 'answer' ? 'invalid_answer' : 'invalid_options', error: `${issue.path}: ${issue.message}`, value: issue.path === 'answer' ? fields.answer : undefined });
    return undefined;
  }
  return { row, input: parsed.data };
}

/** Checks every row; a dry run (or any invalid row) writes nothing, otherwise every question is created in one transaction. */
export async function importQuestions(db: Db, file: { filepath: string; originalFilename?: string | null }, dryRun: boolean): Promise<QuestionImportReport> {
  assertXlsx(file);
  const rows = await readXlsxRows(file.filepath);
  if (!rows.length) throw validationFailed('The import file contains no questions');
  if (rows.length > MAX_IMPORT_ROWS) throw validationFailed(`At most ${MAX_IMPORT_ROWS} questions per import`);
  const courses = ((await db('courses').select('id', 'title')) as Course[]).map((c) => ({ id: Number(c.id), title: c.title }));
  const errors: BulkImportRowError[] = [];
  const valid = rows.map((r) => prepare(r, courses, errors)).filter((p): p is Prepared => !!p);
  const report: QuestionImportReport = { dry_run: dryRun, total: rows.length, valid: valid.length, imported: 0, errors };
  if (errors.length || dryRun) return report;
  await db.transaction(async (trx) => {
    for (const { input } of valid) await createQuestion(trx, input);
  });
  report.imported = valid.length;
  return report;
}

export const questionTemplate = (): Promise<Buffer> =>
  templateWorkbook(
    '题目',
    [
      { header: '题型', width: 8 },
      { header: '题干', width: 40 },
      ...['A', 'B', 'C', 'D'].map((k) => ({ header: `选项${k}`, width: 18 })),
      { header: '答案', width: 8 },
      { header: '解析', width: 30 },
      { header: '领域', width: 14 },
      { header: '课程', width: 16 },
    ],
    [
      ['单选', '稳健型客户适合的产品风险等级最高为？', 'R1', 'R2', 'R3', 'R4', 'C', '稳健型（C3）客户可购买 R3 及以下风险等级的产品。', 'compliance', ''],
      ['多选', '销售理财产品时必须完成的步骤有？', '风险测评', '风险揭示', '双录', '赠送礼品', 'A,B,C', '赠送礼品不属于规定流程。', 'compliance', ''],
      ['判断', '可以向客户承诺保本保收益。', '', '', '', '', '错误', '监管规定禁止承诺保本保收益。', 'compliance', ''],
    ],
  );
