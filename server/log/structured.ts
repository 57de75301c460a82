// The server's structured log: JSON lines through pino, one object a line, with the request id of the request a line
// belongs to. On a laptop they go to DATA_DIR/logs/server.log (5 MB, 3 older files kept: the file people send with a
// support request); on a server to stdout, where the platform collects them (LOG_TARGET=stdout, the default when
// DATABASE_URL is set). Secrets never reach a line: redaction paths for fields, and a scrub of the message text.
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger as PinoLogger, type LevelWithSilent } from 'pino';
import { DEFAULT_ROTATION, RotatingFile, type RotationOptions } from './rotating-file.js';

export type LogTarget = 'stdout' | 'file';
export type StructuredLogger = PinoLogger;

/** Fields that are never written, at any depth we log (pino's fast-redact paths). */
export const REDACT_PATHS = [
  'password',
  'new_password',
  'old_password',
  'token',
  'api_key',
  'apiKey',
  'authorization',
  'cookie',
  'secret',
  'METRICS_TOKEN',
  'customer_number',
  'phone',
  'mobile',
  '*.password',
  '*.new_password',
  '*.old_password',
  '*.token',
  '*.api_key',
  '*.apiKey',
  '*.authorization',
  '*.cookie',
  '*.secret',
  '*.METRICS_TOKEN',
  '*.customer_number',
  '*.phone',
  '*.mobile',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
];

const REDACTED = '[REDACTED]';
/** Secret values configured for this process (METRICS_TOKEN, ...): any text containing one has it replaced. */
const knownSecrets = new Set<string>();

/** Registers a value that must never appear in a log line (a configured token). */
export function neverLog(value: string | undefined): void {
  if (value && value.length >= 4) knownSecrets.add(value);
}

// Mainland mobile numbers (the customer numbers our calls carry), bearer credentials, JWTs, key=value secrets.
const SCRUBS: [RegExp, string][] = [
  [/(?<!\d)1[3-9]\d{9}(?!\d)/g, REDACTED],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/g, REDACTED],
  [/\b(password|api_key|apikey|token|secret)(["']?\s*[:=]\s*["']?)[^\s"',;&}]+/gi, `$1$2${REDACTED}`],
];

/** Keys whose values are never written, at any depth (the redaction paths' names, case and spelling aside). */
const SECRET_KEY = /pass(word)?|token|api_?key|secret|authorization|cookie|customer_?number|phone|mobile|credential/i;

/** A logged object with secret keys' values replaced and every string scrubbed (bodies, headers, queries). */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (!value || typeof value !== 'object' || depth > 6 || value instanceof Error) return value;
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => scrubValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? REDACTED : scrubValue(item, depth + 1);
  return out;
}

/** The text with every secret-looking part replaced. */
export function scrub(text: string): string {
  let out = text;
  for (const secret of knownSecrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of SCRUBS) out = out.replace(pattern, replacement);
  return out;
}

/** What a request's lines carry (the request id), for code that logs without the request at hand (console.*). */
export const logContext = new AsyncLocalStorage<{ reqId: string }>();

export interface StructuredLogOptions {
  target: LogTarget;
  /** The file for target `file`. */
  file?: string;
  level?: LevelWithSilent;
  rotation?: RotationOptions;
}

/** A destination writing each line to the rotating file synchronously (a dying process still gets its last words out). */
function fileDestination(file: string, rotation: RotationOptions): DestinationStream {
  let out: RotatingFile | null = null;
  try {
    out = new RotatingFile(file, rotation);
  } catch {
    // A folder that cannot be created must not take the app down: lines then go nowhere but the console.
  }
  return {
    write(line: string) {
      try {
        out?.append(line);
      } catch {
        // a full disk, a removed folder: see above
      }
    },
  };
}

export function structuredLogger({ target, file, level = 'info', rotation = DEFAULT_ROTATION }: StructuredLogOptions): StructuredLogger {
  const destination = target === 'file' && file ? fileDestination(file, rotation) : pino.destination({ fd: 1, sync: true });
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: (object) => scrubValue(object) as Record<string, unknown> },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      mixin: () => {
        const context = logContext.getStore();
        return context ? { reqId: context.reqId } : {};
      },
      hooks: {
        // The message text is not covered by the redaction paths: scrub it (and string arguments formatted into it).
        logMethod(args, method) {
          const cleaned = args.map((arg) => (typeof arg === 'string' ? scrub(arg) : arg)) as Parameters<typeof method>;
          return method.apply(this, cleaned);
        },
      },
      serializers: {
        err: (err: unknown) => {
          const serialized = pino.stdSerializers.err(err as Error);
          if (serialized?.message) serialized.message = scrub(serialized.message);
          if (serialized?.stack) serialized.stack = scrub(serialized.stack);
          return serialized;
        },
      },
    },
    destination,
  );
}

/** Nothing written: tests' in-process servers and the bench. */
export const silentStructuredLogger: StructuredLogger = pino({ level: 'silent' });

let current: StructuredLogger = silentStructuredLogger;

/** The process's server log (silent until a dedicated server process installs one). */
export const serverLog = (): StructuredLogger => current;

/** Makes `logger` the process's server log (the headless server, the desktop app's server process). */
export function installServerLog(logger: StructuredLogger): void {
  current = logger;
}

/** LOG_TARGET's default: stdout on a central server (DATABASE_URL set), the rotating file on a laptop. */
export const defaultLogTarget = (databaseUrl: string | undefined): LogTarget => (databaseUrl ? 'stdout' : 'file');
