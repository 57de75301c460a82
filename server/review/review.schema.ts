import { z } from 'zod';
import { SELF_RATINGS } from '../../contract/review.js';

const AnswerValue = z.union([z.string().max(1000), z.array(z.string().max(200)).max(100), z.boolean()]);

/** A question card takes `answer` (rule 2.3.2); a practice card takes `rating` (the trainee's own). */
export const AnswerBody = z.object({
  card_id: z.number().int().positive().max(2_147_483_647),
  answer: AnswerValue.nullable().optional(),
  rating: z.enum(SELF_RATINGS as [string, ...string[]]).optional(),
});
export type AnswerInput = z.output<typeof AnswerBody>;

export const SelfTestBody = z.object({ limit: z.number().int().min(1).max(100).optional() });

export const StatsQuery = z.object({
  department: z.string().trim().max(100).optional(),
  days: z.coerce.number().int().min(1).max(365).default(30),
});
export type StatsFilter = z.output<typeof StatsQuery>;
