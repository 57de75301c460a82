// What the branch accepts as the central server's answers. A server that is not a Trainbench central server (or a
// broken one) may answer JSON of any shape: it is refused in plain words, never stored or crashed on.
import { z } from 'zod';

export const EnrolmentAnswer = z.object({ device_id: z.number().int().positive(), device_gid: z.string().min(1).max(64), credential: z.string().min(1) });

const PulledChange = z.object({
  entity: z.string().min(1),
  gid: z.string().min(1),
  op: z.enum(['upsert', 'delete']),
  data: z.record(z.string(), z.unknown()).nullable(),
});

export const PullAnswer = z.object({ changes: z.array(PulledChange), cursor: z.string(), more: z.boolean(), remaining: z.number().int().min(0).default(0) });

export const PushAnswer = z.object({
  results: z.array(z.object({ change_id: z.string(), outcome: z.enum(['accepted', 'refused', 'conflict', 'retry']), reason: z.string().nullable() })),
});

export const UploadAnswer = z.object({ received: z.number().int().min(0) }).loose();
