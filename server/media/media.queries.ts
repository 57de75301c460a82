import type { Db } from '../db/knex.js';
import type { MediaSummary } from '../../contract/catalog.js';

export type MediaBinding = 'company' | 'product' | 'course' | 'none';

/**
 * Approved media bound to a company/product/course, for the detail pages that list them.
 * Only approved media are ever listed (spec 4.2, 4.4).
 */
export async function approvedMediaFor(_db: Db, _bindType: MediaBinding, _bindId?: number): Promise<MediaSummary[]> {
  return [];
}
