// What a job ends with, the same on both queues: the handler's value, or its refusal (a 4xx AppError: the answer to
// the request, final, never retried). The refusal travels as plain JSON (pg-boss keeps it as the job's output), so
// the waiting request, on whatever node, rethrows it with the status, code, message and details the handler gave.
import { ErrorCode } from '../../contract/envelope.js';
import { AppError } from '../http/errors.js';
import { toAppError } from '../http/envelope.js';

export interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: unknown;
}

export type Outcome<R> = { value: R } | { refused: Refusal };

/** The refusal an error stands for, or undefined for a failure (a fault of ours, to retry). */
export function refusalOf(err: unknown): Refusal | undefined {
  const appError = toAppError(err);
  if (appError.status >= 500) return undefined;
  return { status: appError.status, code: appError.code, message: appError.message, ...(appError.details === undefined ? {} : { details: appError.details }) };
}

/** Runs the handler; a refusal becomes its outcome, a failure is thrown. */
export async function settle<R>(work: () => Promise<R>): Promise<Outcome<R>> {
  try {
    return { value: await work() };
  } catch (err) {
    const refused = refusalOf(err);
    if (refused) return { refused };
    throw err;
  }
}

/** The handler's value, or its refusal thrown again as the AppError it was. */
export function answerOf<R>(outcome: Outcome<R>): R {
  if ('refused' in outcome) {
    const { status, code, message, details } = outcome.refused;
    throw new AppError(status, code, message, details);
  }
  return outcome.value;
}

/** A job that failed past its retries: what the waiting request rejects with (a 500, the reason kept for the log). */
export class JobFailed extends Error {
  constructor(name: string, key: string, reason: string) {
    super(`job ${name} ${key} failed after its retries: ${reason}`);
    this.name = 'JobFailed';
  }
}

/** The job was cancelled by someone other than the waiting request (another request, an operator). */
export const cancelledElsewhere = () => new AppError(409, ErrorCode.conflict, 'The work was cancelled before it finished; try again');
