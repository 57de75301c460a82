// `npm run server`: the headless server. Its log is JSON lines (server/log/structured.ts): in DATA_DIR/logs/server.log
// (LOG_TARGET=file, the laptop's default; the console still shows the lines as text) or on stdout (LOG_TARGET=stdout,
// the default with DATABASE_URL: a central server's platform collects them).
import { ConfigError, configFromEnv, type AppConfig } from './config.js';
import { startServer } from './start.js';
import { asLogger, captureConsole, consoleLogger, serverStructuredLog } from './log/logger.js';
import { installServerLog, neverLog } from './log/structured.js';

let config: AppConfig;
try {
  config = configFromEnv();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  // A bad variable stops the start in one line that names it (no stack trace to read through).
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
for (const secret of [config.metricsToken, config.jwtSecret, config.urlSigningSecret, config.adminPassword]) neverLog(secret);
const structured = serverStructuredLog(config);
installServerLog(structured);
captureConsole(asLogger(structured), { echo: config.logTarget === 'file' });
const server = await startServer(config, { log: consoleLogger });

// Before anything is printed: whoever reads `listening on` may stop the server at once.
// SIGTERM: readiness turns 503, no new connection is taken, running requests and streams get SHUTDOWN_GRACE_SECONDS
// to finish, background jobs hand their leases back, then the process exits.
const shutdown = async (signal: NodeJS.Signals) => {
  console.log(`${signal}: stopping (up to ${config.shutdownGraceSeconds} s for running requests)`);
  await server.close({ graceMs: config.shutdownGraceSeconds * 1000 });
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

if (server.generatedAdminPassword) {
  // Straight to the terminal: a password must not be kept in the log file.
  process.stdout.write(`created admin "${config.adminUsername}" with generated password: ${server.generatedAdminPassword}\n`);
}
console.log(`listening on ${server.url}`);
// Whoever started the server reads this line (a supervisor, the tests): plain, whatever the log's target.
if (config.logTarget === 'stdout') process.stdout.write(`listening on ${server.url}\n`);
