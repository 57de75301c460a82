// The coach's system instructions: its role, the product in context and the retrieved knowledge.
import type { Product } from '../../contract/catalog.js';
import type { ChunkHit } from '../knowledge/search.js';

export const COACH_ROLE =
  "You are the sales coach of the company's training platform. You help employees understand the products, " +
  'practise sales conversations, handle customer objections and prepare for exams. Answer in the language the ' +
  'employee writes in, be concrete and compliant: never promise returns, point out product risks, and say so ' +
  'when the material below does not cover a question.';

const MAX_DESCRIPTION_CHARS = 4000;
const MAX_CHUNK_CHARS = 1500;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The product as a list of labelled lines, empty values left out. */
export function describeProduct(product: Product): string {
  const lines: [string, string | number | null][] = [
    ['Name', product.name],
    ['Code', product.code],
    ['Category', product.category],
    ['Risk level', product.risk_level],
    ['Commission rate (%)', product.commission_rate],
    ['Summary', product.summary],
    ['Description', clip(product.description, MAX_DESCRIPTION_CHARS)],
    ...Object.entries(product.attributes),
  ];
  return lines
    .filter(([, value]) => value !== null && value !== '')
    .map(([label, value]) => `- ${label}: ${value}`)
    .join('\n');
}

export function describeChunks(chunks: ChunkHit[]): string {
  return chunks.map((chunk, i) => `[${i + 1}] ${chunk.source.title}\n${clip(chunk.content, MAX_CHUNK_CHARS)}`).join('\n\n');
}

export interface CoachContext {
  product: Product | null;
  chunks: ChunkHit[];
  page?: string;
  /** A role-play from a real call (a coaching report's scenario). */
  rolePlay?: string;
}

export function coachInstructions({ product, chunks, page, rolePlay }: CoachContext): string {
  const parts = [COACH_ROLE];
  if (page) parts.push(`The employee is on the page: ${page}`);
  if (rolePlay) parts.push(rolePlay);
  if (product) parts.push(`Product in context (the one the employee is looking at):\n${describeProduct(product)}`);
  if (chunks.length) {
    parts.push(`Knowledge base excerpts (approved sources; prefer them over general knowledge and name the source you use):\n${describeChunks(chunks)}`);
  }
  return parts.join('\n\n');
}
