// The About dialog: the versions a support request needs (app, server API, database, Electron) and where the
// data and the logs are.
import type { ServerAbout } from '../server/start.js';

export interface AboutFacts {
  appVersion: string;
  /** Null while the server is not running. */
  server: ServerAbout | null;
  versions: { electron?: string; chrome?: string; node: string };
  platform: string;
  dataDir: string;
  logsDir: string;
}

export function aboutText({ appVersion, server, versions, platform, dataDir, logsDir }: AboutFacts): { message: string; detail: string } {
  const database = server ? `${server.database.engine} ${server.database.version}, schema ${server.database.schema}` : 'unknown (the local server is not running)';
  return {
    message: `Trainbench ${appVersion}`,
    detail: [
      `Server: ${server ? `${server.app_version}, API ${server.api_version}` : 'not running'}`,
      `Database: ${database}`,
      `Electron ${versions.electron ?? '-'} · Chromium ${versions.chrome ?? '-'} · Node ${versions.node} · ${platform}`,
      '',
      `Data: ${dataDir}`,
      `Logs: ${logsDir}`,
    ].join('\n'),
  };
}
