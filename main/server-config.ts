import path from 'node:path';
import { configFromEnv, type AppConfig } from '../server/config.js';

/** Where the app runs from: the repository (`npm start`), or an installed package with its resources folder. */
export interface AppLayout {
  packaged: boolean;
  /** Electron's process.resourcesPath (app.asar, app.asar.unpacked and the extra resources). */
  resourcesPath: string;
}

export const SOURCE_LAYOUT: AppLayout = { packaged: false, resourcesPath: '' };

/**
 * The embedded server's configuration: always on loopback (HOST is ignored: the desktop app never serves the
 * network), on PORT when given or else any free port, with its data in DATA_DIR or the app's user-data folder.
 * Installed, the knowledge sources live in the data folder (admins import packs into them; the install folder
 * is read-only), seeded from the shipped ones (local models are found in the resources folder by
 * server/audio/models.ts).
 */
export function desktopServerConfig(env: NodeJS.ProcessEnv, userDataDir: string, layout: AppLayout = SOURCE_LAYOUT): AppConfig {
  const dataDir = env.DATA_DIR || userDataDir;
  const installed = layout.packaged
    ? {
        knowledgeDir: path.resolve(env.KNOWLEDGE_DIR || path.join(dataDir, 'knowledge-sources')),
        knowledgeSeedDir: path.join(layout.resourcesPath, 'knowledge-sources'),
      }
    : {};
  return configFromEnv(env, {
    dataDir,
    host: '127.0.0.1',
    ...(env.PORT ? {} : { port: 0 }),
    ...installed,
  });
}
