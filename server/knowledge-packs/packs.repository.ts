// Reads the knowledge-pack domain needs from the sources, media, products and courses tables.
import type { Db } from '../db/knex.js';
import type { SourceRow } from '../knowledge/sources.repository.js';
import type { MediaRow } from '../media/media.repository.js';
import { findProductByCode, findProductRow } from '../products/products.repository.js';

export const sourceRows = (db: Db, ids?: number[]): Promise<SourceRow[]> => {
  const query = db<SourceRow>('knowledge_sources').orderBy('id');
  return ids ? query.whereIn('id', ids) : query.where({ status: 'approved' });
};

export const mediaRows = (db: Db, ids?: number[]): Promise<MediaRow[]> => {
  const query = db<MediaRow>('media_files').orderBy('id');
  return ids ? query.whereIn('id', ids) : query.where({ status: 'approved' });
};

/** Media that may hold the same bytes as an incoming file (same name and size); the caller compares hashes. */
export const mediaLike = (db: Db, filename: string, size: number): Promise<MediaRow[]> =>
  db<MediaRow>('media_files').where({ filename, size }).orderBy('id');

export const productCodeOf = async (db: Db, id: number): Promise<string | undefined> => (await findProductRow(db, id))?.code || undefined;

export const productIdByCode = async (db: Db, code: string): Promise<number | undefined> => (await findProductByCode(db, code))?.id;

export const courseTitleOf = async (db: Db, id: number): Promise<string | undefined> =>
  ((await db('courses').where({ id }).first('title')) as { title: string } | undefined)?.title;

/** The oldest course of that title (titles are not unique). */
export const courseIdByTitle = async (db: Db, title: string): Promise<number | undefined> => {
  const row = (await db('courses').where({ title }).orderBy('id').first('id')) as { id: number } | undefined;
  return row ? Number(row.id) : undefined;
};
