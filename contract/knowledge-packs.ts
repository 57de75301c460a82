/** Signed knowledge packs: approved knowledge sources and media carried from one install to another (issue 4). */
import type { KnowledgeSourceStatus } from './knowledge.js';
import type { MediaStatus } from './media.js';

/** This install's pack-signing key, to be put in another install's `trusted_pack_keys` (either field works there). */
export interface PackKey {
  /** ed25519 public key, base64 SPKI DER. */
  public_key: string;
  /** First 32 hex digits of the sha256 of the key. */
  fingerprint: string;
}

/**
 * Without a body (or with neither list) everything approved is exported; once one list is given, an omitted list
 * means none of that kind.
 */
export interface PackExportRequest {
  source_ids?: number[];
  media_ids?: number[];
}

/** created: new on this install; updated: known, with new content (pending again, or re-approved when trusted); unchanged: already there as it is. */
export type PackItemChange = 'created' | 'updated' | 'unchanged';

export interface PackImportedSource {
  id: number;
  /** Where the file now lives, relative to KNOWLEDGE_DIR: `imported/<fingerprint>/<file_path in the pack>`. */
  file_path: string;
  title: string;
  status: KnowledgeSourceStatus;
  change: PackItemChange;
}

export interface PackImportedMedia {
  id: number;
  filename: string;
  status: MediaStatus;
  change: Exclude<PackItemChange, 'updated'>;
}

export interface PackImportResult {
  /** The signing key is in trusted_pack_keys: what was new or changed arrived approved. */
  trusted: boolean;
  /** The fingerprint of the key that signed the pack. */
  fingerprint: string;
  sources: PackImportedSource[];
  media: PackImportedMedia[];
}

export const PackErrorCode = {
  /** Not a pack, damaged, truncated, tampered with, or a manifest this install cannot accept. */
  invalid: 'pack_invalid',
  /** An export that would contain nothing. */
  empty: 'pack_empty',
  /** An export asked for a source or media that is not approved. */
  notApproved: 'pack_not_approved',
  /** An import would overwrite a file of KNOWLEDGE_DIR it does not own. */
  conflict: 'pack_conflict',
} as const;
