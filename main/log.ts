/** What main-process modules log through; console in the app, a recorder in tests. */
export interface Logger {
  info(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

export const consoleLogger: Logger = {
  info: (message, ...details) => console.log(`[trainbench] ${message}`, ...details),
  error: (message, ...details) => console.error(`[trainbench] ${message}`, ...details),
};
