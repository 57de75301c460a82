import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import { MAX_SOURCE_BYTES } from '../knowledge/source-files.js';
import { packError, type PackManifest } from './pack-file.js';

const Ids = z.array(z.number().int().positive().max(2_147_483_647)).max(10_000);

export const ExportBody = z.object({ source_ids: Ids.optional(), media_ids: Ids.optional() });
export type ExportSelection = z.output<typeof ExportBody>;

/** Longest file_path a pack may carry: `imported/<32-digit fingerprint>/` must still fit the 1,000 of the column. */
const MAX_PACK_FILE_PATH = 950;
/** 255 bytes is a file name's limit; placing a file writes `.<name>.<uuid>.tmp` beside it first (43 bytes more). */
const MAX_SEGMENT_BYTES = 200;
// Names no supported file system (Windows included) could hold, or that would hide a file from the scan.
const BAD_SEGMENT = /^\.|[\\\p{Cc}<>:"|?*]/u;

/** A relative `a/b/c.md` path that can only name a file inside the folder it is joined to. */
export function isSafeSourcePath(filePath: string): boolean {
  const segments = filePath.split('/');
  return (
    filePath.length <= MAX_PACK_FILE_PATH &&
    /\.md$/i.test(filePath) &&
    segments.every((s) => s !== '' && s.trim() === s && !BAD_SEGMENT.test(s) && Buffer.byteLength(s) <= MAX_SEGMENT_BYTES)
  );
}

const Entry = z.object({ path: z.string(), size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

const SourceEntry = Entry.extend({
  size: z.number().int().min(0).max(MAX_SOURCE_BYTES),
  file_path: z.string().refine(isSafeSourcePath, 'must be a relative path of a .md file without "..", hidden or reserved names'),
  title: nameText(500).min(1),
  domain: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/),
});

const MediaEntry = Entry.extend({
  filename: z.string().min(1).max(1000),
  // A binding kind this version does not know is dropped rather than refusing the whole pack.
  bind_type: z.enum(['company', 'product', 'course', 'none']).catch('none'),
  bind_ref: z.string().min(1).max(1000).optional(),
});

const ImportableManifest = z
  .object({ sources: z.array(SourceEntry), media: z.array(MediaEntry) })
  .superRefine((m, ctx) => {
    const paths = [...m.sources, ...m.media].map((e) => e.path);
    if (new Set(paths).size !== paths.length) ctx.addIssue({ code: 'custom', message: 'two entries share one file' });
    const filePaths = m.sources.map((s) => s.file_path.toLowerCase());
    if (new Set(filePaths).size !== filePaths.length) ctx.addIssue({ code: 'custom', path: ['sources'], message: 'two sources share one file_path' });
    const folders = new Set(filePaths.flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
    if (filePaths.some((p) => folders.has(p))) ctx.addIssue({ code: 'custom', path: ['sources'], message: 'a source\'s file_path is also the folder of another source' });
  });

export type ImportableSource = z.output<typeof SourceEntry>;
export type ImportableMedia = z.output<typeof MediaEntry>;

/**
 * readPack proved who signed the manifest and that the files match it; anyone can sign, though, so what the
 * import will use is checked here before anything is written.
 */
export function importableManifest(manifest: PackManifest): { sources: ImportableSource[]; media: ImportableMedia[] } {
  const parsed = ImportableManifest.safeParse(manifest);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw packError(`The manifest cannot be imported: ${issue.path.join('.') || 'manifest'} ${issue.message}`);
}
