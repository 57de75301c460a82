// Approve-time ingestion of a parsed knowledge source, all on the caller's transaction: products upserted by
// code, questions upserted by stem, prose replaced as chunks.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { now } from '../db/time.js';
import { findProductByCode, insertProduct, updateProductRow } from '../products/products.repository.js';
import { insertQuestionRow, updateQuestionRow, type QuestionContent } from '../exams/questions.repository.js';
import { KnowledgeFormatError, type ParsedProduct, type ParsedQuestion } from './blocks.js';
import type { ParsedSource } from './format.js';
import { replaceChunks, splitIntoChunks } from './chunks.js';

export interface IngestCounts {
  products: number;
  chunks: number;
  questions: number;
}

async function upsertProducts(trx: Knex.Transaction, products: ParsedProduct[]): Promise<void> {
  for (const { input } of products) {
    const existing = await findProductByCode(trx, input.code);
    if (existing) await updateProductRow(trx, existing.id, input);
    else await insertProduct(trx, input);
  }
}

async function assertCoursesExist(trx: Knex.Transaction, questions: ParsedQuestion[]): Promise<void> {
  const wanted = [...new Set(questions.map((q) => q.course_id).filter((id): id is number => id !== null))];
  if (!wanted.length) return;
  const found = new Set((await trx('courses').whereIn('id', wanted).pluck('id')).map(Number));
  const missing = questions.find((q) => q.course_id !== null && !found.has(q.course_id));
  if (missing) throw new KnowledgeFormatError(missing.courseLine, `course_id ${missing.course_id} does not exist`);
}

const stemKey = (stem: string): string => crypto.createHash('sha256').update(stem).digest('hex');

/**
 * Questions this source created before are updated (and re-activated) rather than added again; those no longer
 * in the file are disabled, as a deleted question would be.
 */
async function upsertQuestions(trx: Knex.Transaction, sourceId: number, domain: string, questions: ParsedQuestion[]): Promise<void> {
  await assertCoursesExist(trx, questions);
  const links = new Map<string, number>(
    (await trx('knowledge_source_questions').where({ source_id: sourceId }).select('stem_key', 'question_id')).map((r: { stem_key: string; question_id: number }) => [r.stem_key, Number(r.question_id)]),
  );
  const kept = new Set<number>();
  for (const q of questions) {
    const content: QuestionContent = { domain, course_id: q.course_id, type: q.type, stem: q.stem, options: q.options, answer: q.answer, explanation: q.explanation, status: 'active' };
    const key = stemKey(q.stem);
    let id = links.get(key);
    if (id !== undefined) {
      await updateQuestionRow(trx, id, content);
    } else {
      id = await insertQuestionRow(trx, content);
      await trx('knowledge_source_questions').insert({ source_id: sourceId, stem_key: key, question_id: id });
    }
    kept.add(id);
  }
  const dropped = [...links.values()].filter((id) => !kept.has(id));
  if (dropped.length) await trx('questions').whereIn('id', dropped).update({ status: 'disabled', updated_at: now() });
}

export async function ingestSource(trx: Knex.Transaction, sourceId: number, parsed: ParsedSource): Promise<IngestCounts> {
  await upsertProducts(trx, parsed.products);
  await upsertQuestions(trx, sourceId, parsed.domain, parsed.questions);
  const chunks = await replaceChunks(trx, { source_type: 'knowledge', source_id: sourceId, title: parsed.title }, splitIntoChunks(parsed.prose));
  return { products: parsed.products.length, chunks, questions: parsed.questions.length };
}
