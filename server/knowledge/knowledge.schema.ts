import { z } from 'zod';
import { Paging } from '../http/validate.js';

export const AuditBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('approve'), reject_reason: z.string().optional() }),
  z.object({
    action: z.literal('reject'),
    reject_reason: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required to reject' : 'must be a string') })
      .trim()
      .min(1, 'is required to reject')
      .max(2000, 'must be at most 2000 characters'),
  }),
], { error: 'must be "approve" or "reject"' });

/** The audit queue: status omitted = pending, `all` = every status. */
export const AuditListQuery = Paging.extend({
  status: z.enum(['pending', 'approved', 'rejected', 'all']).default('pending'),
});

export const SearchQuery = z.object({
  q: z.string({ error: 'is required' }).trim().min(1, 'is required').max(500),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
