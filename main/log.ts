// The main process's log: userData/logs/main.log (rotated), next to the server's server.log, echoed to the
// terminal when run from source.
import path from 'node:path';
import { fileLogger, logsDir, type Logger } from '../server/log/logger.js';

export type { Logger } from '../server/log/logger.js';

export function mainLogger(dataDir: string, echo: boolean): Logger & { file: string } {
  return fileLogger(path.join(logsDir(dataDir), 'main.log'), { echo });
}

export const consoleLogger: Logger = {
  info: (message, ...details) => console.log(`[trainbench] ${message}`, ...details),
  error: (message, ...details) => console.error(`[trainbench] ${message}`, ...details),
};
