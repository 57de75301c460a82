import { ErrorCode } from '../../contract/envelope.js';

/** An error meant for the client: its status, stable code and message are sent as they are. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: unknown, code: string = ErrorCode.badRequest) =>
  new AppError(400, code, message, details);
export const validationFailed = (message: string, details?: unknown) =>
  new AppError(400, ErrorCode.validationFailed, message, details);
export const unauthorized = (message = 'Authentication required') =>
  new AppError(401, ErrorCode.unauthorized, message);
export const forbidden = (message = 'You are not allowed to do this') =>
  new AppError(403, ErrorCode.forbidden, message);
export const notFound = (what = 'Resource') => new AppError(404, ErrorCode.notFound, `${what} not found`);
export const conflict = (message: string) => new AppError(409, ErrorCode.conflict, message);
export const payloadTooLarge = (message: string) => new AppError(413, ErrorCode.payloadTooLarge, message);

const POSTGRES_BAD_VALUE: Record<string, string> = {
  '22003': 'A number in the request is out of range',
  '22021': 'The request contains a character that cannot be stored (such as NUL)',
  '22P02': 'A value in the request is not valid for its field',
  '22001': 'A value in the request is too long',
};

/** Maps database driver errors that callers can cause (unique or foreign-key violations, numbers out of range) to client errors. */
export function fromDriverError(err: unknown): AppError | undefined {
  const e = err as { code?: string; errno?: number; message?: string };
  const msg = e?.message ?? '';
  if (e?.code === '23505' || /SQLITE_CONSTRAINT: UNIQUE/.test(msg)) {
    return conflict('A record with the same unique value already exists');
  }
  if (e?.code === '23503' || /SQLITE_CONSTRAINT: FOREIGN KEY/.test(msg)) {
    return badRequest('A referenced record does not exist', undefined, ErrorCode.validationFailed);
  }
  // PostgreSQL refuses, even in a comparison, what SQLite simply does not find: a number beyond an integer column,
  // a NUL character in text, text that is not a valid value of its type, text longer than its column.
  if (e?.code && POSTGRES_BAD_VALUE[e.code]) return badRequest(POSTGRES_BAD_VALUE[e.code]!, undefined, ErrorCode.validationFailed);
  return undefined;
}
