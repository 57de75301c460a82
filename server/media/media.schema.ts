import { z } from 'zod';
import { Paging } from '../http/validate.js';

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/**
 * bind_type (default `none`) and bind_id, as JSON values or multipart text fields. A product or course binding needs
 * its id; company and none have no id, so one sent with them (some clients always send the field) is dropped.
 */
export const Binding = z
  .object({
    bind_type: z.preprocess(blankToUndefined, z.enum(['company', 'product', 'course', 'none']).default('none')),
    bind_id: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(2_147_483_647).optional()),
  })
  .superRefine((b, ctx) => {
    if ((b.bind_type === 'product' || b.bind_type === 'course') && b.bind_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['bind_id'], message: `is required when bind_type is ${b.bind_type}` });
    }
  })
  .transform((b) => (b.bind_type === 'product' || b.bind_type === 'course' ? b : { bind_type: b.bind_type, bind_id: undefined }));
export type BindingInput = z.output<typeof Binding>;

export const UploadInit = z.intersection(
  z.object({
    filename: z.string().min(1).max(1000),
    file_size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  }),
  Binding,
);
export type UploadInitInput = z.output<typeof UploadInit>;

export const UploadId = z.string().trim().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be an upload id from init');

export const ChunkFields = z.object({
  upload_id: UploadId,
  chunk_index: z.string().trim().regex(/^\d{1,9}$/, 'must be an integer from 0').transform(Number),
});

export const CompleteBody = z.object({ upload_id: UploadId });

export const AuditBody = z
  .object({
    action: z.enum(['approve', 'reject']),
    reject_reason: z.string().trim().max(2000).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.action === 'reject' && !b.reject_reason) ctx.addIssue({ code: 'custom', path: ['reject_reason'], message: 'is required to reject' });
  });
export type AuditInput = z.output<typeof AuditBody>;

export const AuditListQuery = Paging.extend({
  status: z.enum(['pending', 'approved', 'rejected', 'all']).default('pending'),
});

export const SuggestFields = z.object({ remark: z.string().max(2000).default('') });
