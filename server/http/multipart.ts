import fs from 'node:fs/promises';
import os from 'node:os';
import type { Context, Middleware, Next } from 'koa';
import type { koaBody as KoaBody } from 'koa-body';
import type { File } from 'formidable';
import { AppError, badRequest, payloadTooLarge, validationFailed } from './errors.js';
import { ErrorCode } from '../../contract/envelope.js';

export interface MultipartOptions {
  /** Largest accepted file in bytes; a larger one is a 413. */
  maxFileSize: number;
  /** Where formidable streams files while they arrive (defaults to the OS temp folder). */
  uploadDir?: string;
  /** The error for a file over maxFileSize (a 413 payload_too_large unless the route says otherwise). */
  tooLarge?: () => AppError;
}

/** Multipart bodies are read as sent: a compressed one (Content-Encoding gzip, br...) is a 415, not garbled fields. */
export function refuseEncodedBody(ctx: Context): void {
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding && encoding !== 'identity') throw new AppError(415, ErrorCode.unsupportedMediaType, `A multipart body is not accepted with Content-Encoding ${encoding}: send it uncompressed`);
}

/**
 * Parses multipart/form-data by streaming each file to disk. Temporary files that the handler did not move
 * away are removed after the response, whatever happened.
 */
export function multipart({ maxFileSize, uploadDir, tooLarge }: MultipartOptions): Middleware {
  // koa-body (with formidable) is loaded on the first multipart request, not at every start of the server.
  let parser: Promise<ReturnType<typeof KoaBody>> | undefined;
  const parse = (ctx: Context, next: Next) => {
    parser ??= import('koa-body').then(({ koaBody }) =>
      koaBody({
        multipart: true,
        json: false,
        urlencoded: true,
        text: false,
        onError: (error) => {
          throw toClientError(error, tooLarge ?? (() => payloadTooLarge(`The file is larger than the ${Math.round(maxFileSize / (1024 * 1024))} MB allowed here`)));
        },
        formidable: { maxFileSize, maxTotalFileSize: maxFileSize, maxFiles: 5, uploadDir: uploadDir ?? os.tmpdir(), keepExtensions: false, allowEmptyFiles: true, minFileSize: 0 },
      }),
    );
    return parser.then((middleware) => middleware(ctx, next));
  };
  return async (ctx: Context, next: Next) => {
    if (!ctx.is('multipart')) throw validationFailed('Expected a multipart/form-data body');
    refuseEncodedBody(ctx);
    try {
      await parse(ctx, next);
    } finally {
      await Promise.all(uploadedFiles(ctx).map((f) => fs.rm(f.filepath, { force: true })));
    }
  };
}

const TOO_LARGE_CODES = new Set([1009, 1016]); // formidable's biggerThanTotalMaxFileSize, biggerThanMaxFileSize

/**
 * formidable reports limits and broken bodies with its own codes; the client gets 413 or 400 for them, in our words
 * (its messages describe its parser's state, `MultipartParser.end(): stream ended unexpectedly: state = START`).
 */
function toClientError(error: Error, tooLarge: () => AppError): Error {
  const e = error as Error & { httpCode?: number; code?: number };
  if (e.httpCode === 413 || TOO_LARGE_CODES.has(e.code ?? 0)) return tooLarge();
  return badRequest('The multipart/form-data body is malformed or incomplete: send the form again');
}

function uploadedFiles(ctx: Context): File[] {
  const files = ctx.request.files ?? {};
  return Object.values(files).flatMap((f) => (Array.isArray(f) ? f : [f]));
}

/** The single file of a form field; 400 when it is missing. */
export function requireFile(ctx: Context, field = 'file'): File {
  const entry = ctx.request.files?.[field];
  const file = Array.isArray(entry) ? entry[0] : entry;
  if (!file) throw validationFailed(`Missing file field "${field}"`);
  return file;
}

/** A text field of the form, trimmed; undefined when absent. */
export function formField(ctx: Context, name: string): string | undefined {
  const body = ctx.request.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : undefined;
}
