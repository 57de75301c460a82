import { configFromEnv, type AppConfig } from '../server/config.js';

/**
 * The embedded server's configuration: always on loopback (HOST is ignored: the desktop app never serves the
 * network), on PORT when given or else any free port, with its data in DATA_DIR or the app's user-data folder.
 */
export function desktopServerConfig(env: NodeJS.ProcessEnv, userDataDir: string): AppConfig {
  return configFromEnv(env, {
    dataDir: env.DATA_DIR || userDataDir,
    host: '127.0.0.1',
    ...(env.PORT ? {} : { port: 0 }),
  });
}
