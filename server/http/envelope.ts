import type { Context, Next } from 'koa';
import { ErrorCode, type Envelope } from '../../contract/envelope.js';
import { AppError, fromDriverError } from './errors.js';

export function success<T>(data: T): Envelope<T> {
  return { data, error: null, message: 'success' };
}

export function failure(code: string, message: string, details?: unknown): Envelope<null> & { details?: unknown } {
  return details === undefined ? { data: null, error: code, message } : { data: null, error: code, message, details };
}

/** A payload already serialized to JSON (e.g. kept in a cache): the envelope is written around it without re-encoding. */
export class SerializedJson {
  constructor(readonly json: string) {}
}

/** Marks a response that must go out as it is (health, files, event streams). */
export function sendRaw(ctx: Context): void {
  ctx.state.raw = true;
}

/** Turns anything thrown by Koa, koa-body or the body parser into an AppError. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const driver = fromDriverError(err);
  if (driver) return driver;
  const e = err as { status?: number; statusCode?: number; expose?: boolean; message?: string; type?: string; code?: string };
  // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR, brotli's ERR__ERROR_*) carry no status: a body that does not match its
  // Content-Encoding.
  if (typeof e?.code === 'string' && /^(Z_|ERR__ERROR_)/.test(e.code)) {
    return new AppError(400, ErrorCode.badRequest, 'The request body could not be decompressed: it does not match its Content-Encoding');
  }
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413 || e.code === 'ERR_FS_FILE_TOO_LARGE' || /maxFileSize|maxTotalFileSize|too large/i.test(e.message ?? '')) {
      return new AppError(413, ErrorCode.payloadTooLarge, 'The request body is larger than allowed');
    }
    if (status === 415) return new AppError(415, ErrorCode.unsupportedMediaType, e.message ?? 'Unsupported media type');
    if (/forbidden prototype property/i.test(e.message ?? '')) {
      return new AppError(400, ErrorCode.invalidJson, 'The request body contains a "__proto__" or "constructor.prototype" key, which is refused');
    }
    if (/JSON|Unexpected token|parse/i.test(e.message ?? '')) {
      return new AppError(400, ErrorCode.invalidJson, 'The request body is not valid JSON');
    }
    const code = status === 401 ? ErrorCode.unauthorized : status === 403 ? ErrorCode.forbidden : status === 404 ? ErrorCode.notFound : ErrorCode.badRequest;
    return new AppError(status, code, e.expose && e.message ? e.message : 'Bad request');
  }
  return new AppError(500, ErrorCode.internalError, 'Internal server error');
}

/**
 * First middleware: wraps successful bodies as {data, error:null, message:"success"} and every failure
 * as {data:null, error, message}. Unknown errors are reported through app.emit('error') and hidden.
 */
export async function envelope(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
    if (ctx.state.raw) return;
    if (ctx.status === 404 && ctx.body === undefined) {
      throw new AppError(404, ErrorCode.notFound, `No endpoint ${ctx.method} ${ctx.path}`);
    }
    // The router answers 501 to a method it does not know at all (PROPFIND): a client's mistake, so 405 as well.
    if (ctx.status === 405 || ctx.status === 501) {
      throw new AppError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`);
    }
    if (ctx.body instanceof SerializedJson) {
      ctx.type = 'application/json';
      ctx.body = `{"data":${ctx.body.json},"error":null,"message":"success"}`;
      return;
    }
    // The router answers OPTIONS with the Allow header and an empty body: data is null, not "".
    ctx.body = success(ctx.method === 'OPTIONS' && ctx.body === '' ? null : (ctx.body ?? null));
  } catch (err) {
    const appError = toAppError(err);
    if (appError.status >= 500) ctx.app.emit('error', err, ctx);
    if (ctx.headerSent || !ctx.writable) return;
    ctx.state.raw = false;
    ctx.status = appError.status;
    ctx.body = failure(appError.code, appError.message, appError.details);
  }
}
