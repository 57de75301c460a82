import { configFromEnv } from './config.js';
import { startServer } from './start.js';

const config = configFromEnv();
const server = await startServer(config);
if (server.generatedAdminPassword) {
  console.log(`created admin "${config.adminUsername}" with generated password: ${server.generatedAdminPassword}`);
}
console.log(`listening on ${server.url}`);

const shutdown = async () => {
  await server.close();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
