// What a coaching report is made from: the caller's speaker-labelled transcription (given, or found in one of the
// caller's task runs), the product discussed (given, or the active product the call names most), and the approved
// knowledge chunks about that product.
import type { Db } from '../db/knex.js';
import type { Product } from '../../contract/catalog.js';
import type { Transcription } from '../../contract/audio.js';
import { CoachingErrorCode, type CoachingReport } from '../../contract/coaching.js';
import { WorkbenchErrorCode } from '../../contract/workbench.js';
import { AppError, notFound, validationFailed } from '../http/errors.js';
import { findTranscription } from '../audio/transcriptions.repository.js';
import { findProductRow, toProduct, type ProductRow } from '../products/products.repository.js';
import { findOwnTask, findRun } from '../workbench/tasks.repository.js';
import { searchChunks } from '../knowledge/search.js';
import type { ChunkSnapshot, LabelledSegment, ProductNames } from './fact-checks.js';
import { NameIndex } from './names.js';
import type { CallInput } from './coaching.schema.js';

export interface CallSource {
  transcription: Transcription;
  source: CoachingReport['source'];
}

/** The caller's transcription at a revision (the latest when none is given). */
async function ownTranscription(db: Db, userId: number, id: number, revision?: number): Promise<Transcription> {
  const found = await findTranscription(db, userId, id, revision);
  if (!found) throw notFound(revision === undefined ? 'Transcription' : `Revision ${revision} of transcription ${id}`);
  return found;
}

/** The transcription to analyse; another user's transcription or task is a 404 like a missing one. */
export async function resolveCall(db: Db, userId: number, input: CallInput): Promise<CallSource> {
  if (input.transcription_id !== undefined) {
    const transcription = await ownTranscription(db, userId, input.transcription_id, input.revision);
    return { transcription, source: { kind: 'transcription', transcription_id: transcription.id, task_id: null, run_id: null } };
  }
  const task = await findOwnTask(db, userId, input.task_id!);
  const run = await findRun(db, task.id, input.run_id!);
  const documents = run.input.documents ?? [];
  const doc = input.document_index !== undefined ? documents[input.document_index] : documents.find((d) => d.transcription);
  if (!doc?.transcription) {
    const where = input.document_index !== undefined ? `document ${input.document_index} of run ${run.id}` : `run ${run.id}`;
    throw new AppError(400, CoachingErrorCode.noTranscript, `No transcription in ${where}: coaching needs a transcribed call (a run of a task whose documents include a transcription)`);
  }
  const transcription = await ownTranscription(db, userId, doc.transcription.id);
  return { transcription, source: { kind: 'task_run', transcription_id: transcription.id, task_id: task.id, run_id: run.id } };
}

/** The labelled segments (position kept); 400 workbench.speakers_required / coaching.unknown_speaker. */
export function labelledSegments(transcription: Transcription, repSpeaker: string): { segments: LabelledSegment[]; speakers: string[] } {
  const segments = transcription.segments.flatMap((s, index) => (s.speaker !== undefined && s.text.trim() ? [{ index, start: s.start, end: s.end, speaker: s.speaker, text: s.text }] : []));
  if (!transcription.has_speakers || !segments.length) {
    throw new AppError(
      400,
      WorkbenchErrorCode.speakersRequired,
      `Transcription ${transcription.id} has no speaker labels: coaching needs to know who is the rep and who is the customer. Transcribe a stereo call with speakers (channels=rep,customer) on a route that separates them.`,
    );
  }
  const speakers = [...new Set(segments.map((s) => s.speaker))];
  if (!speakers.includes(repSpeaker)) {
    throw new AppError(400, CoachingErrorCode.unknownSpeaker, `"${repSpeaker}" is not a speaker of this call; its speakers are ${speakers.map((s) => `"${s}"`).join(', ')}`, { speakers });
  }
  return { segments, speakers };
}

type NameRow = Pick<ProductRow, 'id' | 'name' | 'code'>;

/** The product given, or the active product the call names most (by name or code; ties: the first named). */
export async function productOfCall(db: Db, productId: number | null | undefined, text: string): Promise<{ names: ProductNames; detected: boolean } | null> {
  const active: NameRow[] = await db('products').where({ status: 'active' }).select('id', 'name', 'code');
  const entries = active.map((r) => ({ id: Number(r.id), names: [r.name, r.code] }));
  if (productId !== undefined && productId !== null) {
    const row = await findProductRow(db, productId);
    if (!row) throw validationFailed(`Invalid product_id: product ${productId} does not exist`, [{ path: 'product_id', message: 'unknown product' }]);
    // An inactive product given explicitly is still checked; its names join the index.
    return { names: { product: toProduct(row), index: new NameIndex([...entries, { id: productId, names: [row.name, row.code] }]) }, detected: false };
  }
  const index = new NameIndex(entries);
  const counts = new Map<number, { count: number; first: number }>();
  for (const hit of index.find(text)) {
    const seen = counts.get(hit.id);
    counts.set(hit.id, { count: (seen?.count ?? 0) + 1, first: seen?.first ?? hit.at });
  }
  const best = [...counts.entries()].sort(([, a], [, b]) => b.count - a.count || a.first - b.first)[0];
  if (!best) return null;
  const row = await findProductRow(db, best[0]);
  return row ? { names: { product: toProduct(row), index }, detected: true } : null;
}

/** Chunks checked per product: every approved chunk naming it, up to this many. */
const MAX_PRODUCT_CHUNKS = 60;
/** Chunks offered to the model: the product's first ones and the best matches of what the rep said. */
const MODEL_PRODUCT_CHUNKS = 10;
const MODEL_SEARCH_CHUNKS = 6;

/**
 * Approved chunks naming the product (search only ever holds chunks of approved sources and media): the full-text
 * index finds the chunks with the name's words, and only those that name it as a whole are kept.
 */
export async function chunksAbout(db: Db, names: ProductNames): Promise<ChunkSnapshot[]> {
  const { product, index } = names;
  const found = new Map<number, ChunkSnapshot>();
  for (const name of [product.name, product.code].filter((n): n is string => !!n && n.trim().length >= 2)) {
    for (const hit of await searchChunks(db, name.trim(), MAX_PRODUCT_CHUNKS)) {
      if (!found.has(hit.id) && index.mentions(hit.content, product.id).own) found.set(hit.id, { id: hit.id, source: hit.source, content: hit.content });
    }
  }
  return [...found.values()].sort((a, b) => a.id - b.id);
}

/** What the model is offered to check the rep's other statements against: the product's chunks, else search hits. */
export async function chunksForModel(db: Db, productChunks: ChunkSnapshot[], repText: string): Promise<ChunkSnapshot[]> {
  const offered = new Map(productChunks.slice(0, MODEL_PRODUCT_CHUNKS).map((c) => [c.id, c]));
  if (offered.size >= MODEL_PRODUCT_CHUNKS) return [...offered.values()];
  const hits = await searchChunks(db, repText.slice(0, 500), MODEL_SEARCH_CHUNKS).catch(() => []);
  for (const hit of hits) if (!offered.has(hit.id)) offered.set(hit.id, { id: hit.id, source: hit.source, content: hit.content });
  return [...offered.values()];
}
