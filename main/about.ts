// The About dialog: the versions a support request needs (app, server API, database, Electron) and where the
// data and the logs are.
import type { ServerAbout } from '../server/start.js';
import type { MainT } from './i18n.js';

export interface AboutFacts {
  appVersion: string;
  /** Null while the server is not running. */
  server: ServerAbout | null;
  versions: { electron?: string; chrome?: string; node: string };
  platform: string;
  dataDir: string;
  logsDir: string;
}

export function aboutText(t: MainT, { appVersion, server, versions, platform, dataDir, logsDir }: AboutFacts): { message: string; detail: string } {
  const database = server ? t('about.schema', { ...server.database }) : t('about.databaseUnknown');
  return {
    message: `Trainbench ${appVersion}`,
    detail: [
      t('about.server', { server: server ? t('about.serverRunning', { app: server.app_version, api: server.api_version }) : t('about.serverStopped') }),
      t('about.database', { database }),
      ...(server?.decoder ? [t('about.decoder', { source: t(`about.decoderSource.${server.decoder.source}`), version: server.decoder.version || '?', path: server.decoder.path })] : []),
      `Electron ${versions.electron ?? '-'} · Chromium ${versions.chrome ?? '-'} · Node ${versions.node} · ${platform}`,
      '',
      t('about.data', { path: dataDir }),
      t('about.logs', { path: logsDir }),
    ].join('\n'),
  };
}
