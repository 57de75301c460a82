// What the server and the main process log through: lines in a rotating file in the logs folder (and on the
// console where someone may be watching). Errors keep their stack in the file: it is what a support request needs.
import path from 'node:path';
import { inspect } from 'node:util';
import { DEFAULT_ROTATION, RotatingFile, type RotationOptions } from './rotating-file.js';
import { scrub, structuredLogger, type LogTarget, type StructuredLogger } from './structured.js';
import type { LevelWithSilent } from 'pino';

export interface Logger {
  info(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };

/** The logs folder of a data folder: the headless server's DATA_DIR/logs, the desktop app's user-data/logs. */
export const logsDir = (dataDir: string): string => path.join(dataDir, 'logs');

const describe = (detail: unknown): string =>
  detail instanceof Error ? (detail.stack ?? `${detail.name}: ${detail.message}`) : typeof detail === 'string' ? detail : inspect(detail, { depth: 4, breakLength: Infinity });

export function formatLine(level: 'INFO' | 'ERROR', message: string, details: unknown[], at = new Date()): string {
  return `${at.toISOString()} ${level.padEnd(5)} ${[message, ...details.map(describe)].join(' ')}\n`;
}

export interface FileLoggerOptions {
  /** Also write to stdout/stderr (off under test and in the packaged app, where nobody reads them). */
  echo?: boolean;
  rotation?: RotationOptions;
}

/** A logger writing to `file` (rotated by size, a few generations kept). */
export function fileLogger(file: string, { echo = false, rotation = DEFAULT_ROTATION }: FileLoggerOptions = {}): Logger & { file: string } {
  // A folder that cannot be created, a full disk or a removed folder must not take the app down with it (the
  // start then fails with its own, explained, error); the console still gets the lines.
  let out: RotatingFile | null = null;
  try {
    out = new RotatingFile(file, rotation);
  } catch {
    // no file: console only
  }
  const write = (level: 'INFO' | 'ERROR', message: string, details: unknown[]) => {
    const line = formatLine(level, message, details);
    try {
      out?.append(line);
    } catch {
      // see above
    }
    if (echo) (level === 'ERROR' ? process.stderr : process.stdout).write(line);
  };
  return {
    file,
    info: (message, ...details) => write('INFO', message, details),
    error: (message, ...details) => write('ERROR', message, details),
  };
}

/**
 * Copies console.log/info/warn/error of this process into `file` (they still reach the console too), so that
 * what libraries and the domains print (driver warnings, logged request failures) lands in the file people send.
 * For dedicated processes only (the server's own process, the headless server), never in a test process that
 * hosts several servers.
 */
export function captureConsole(file: Logger, { echo = true }: { echo?: boolean } = {}): void {
  const { log, info, warn, error } = console;
  // Without echo (the log itself goes to stdout) console lines are only the log's lines: one JSON object each.
  const tee = (original: (...args: unknown[]) => void, level: 'info' | 'error') => (...args: unknown[]) => {
    if (echo) original.apply(console, args);
    file[level](args.map(describe).join(' '));
  };
  console.log = tee(log, 'info');
  console.info = tee(info, 'info');
  console.warn = tee(warn, 'error');
  console.error = tee(error, 'error');
}

/** Lifecycle lines on the console (and, once captureConsole ran, in the log file). */
export const consoleLogger: Logger = {
  info: (message, ...details) => console.log(message, ...details),
  error: (message, ...details) => console.error(message, ...details),
};

/** The Logger interface over the structured log: a message and its details as one scrubbed text. */
export function asLogger(log: StructuredLogger): Logger {
  const text = (message: string, details: unknown[]) => scrub([message, ...details.map(describe)].join(' '));
  return {
    info: (message, ...details) => log.info(text(message, details)),
    error: (message, ...details) => log.error(text(message, details)),
  };
}

/** The server process's structured log: LOG_TARGET=file writes `server.log` in the logs folder, stdout the stream. */
export function serverStructuredLog(config: { dataDir: string; logTarget: LogTarget; logLevel: LevelWithSilent }): StructuredLogger {
  return structuredLogger({ target: config.logTarget, file: path.join(logsDir(config.dataDir), 'server.log'), level: config.logLevel });
}
