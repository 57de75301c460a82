import { z } from 'zod';

export const ProgressUpdate = z.object({ status: z.enum(['viewed', 'completed']) });

/** An admin may look at another user's progress or points; for anyone else the parameter must be their own id or absent. */
export const UserScopeQuery = z.object({ user_id: z.coerce.number().int().positive().optional() });

export const LeaderboardQuery = z.object({
  department: z.string().trim().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
