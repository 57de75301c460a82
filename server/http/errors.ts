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
  // PostgreSQL's integer columns refuse a larger number even in a comparison (SQLite simply finds nothing).
  if (e?.code === '22003') return badRequest('A number in the request is out of range', undefined, ErrorCode.validationFailed);
  return undefined;
}
