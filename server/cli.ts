// `npm run server`: the headless server. Lifecycle lines go to the console and to DATA_DIR/logs/server.log.
import path from 'node:path';
import { configFromEnv } from './config.js';
import { startServer } from './start.js';
import { captureConsole, consoleLogger, fileLogger, logsDir } from './log/logger.js';

const config = configFromEnv();
captureConsole(fileLogger(path.join(logsDir(config.dataDir), 'server.log')));
const server = await startServer(config, { log: consoleLogger });

// Before anything is printed: whoever reads `listening on` may stop the server at once.
const shutdown = async () => {
  await server.close();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

if (server.generatedAdminPassword) {
  // Straight to the terminal: a password must not be kept in the log file.
  process.stdout.write(`created admin "${config.adminUsername}" with generated password: ${server.generatedAdminPassword}\n`);
}
console.log(`listening on ${server.url}`);
