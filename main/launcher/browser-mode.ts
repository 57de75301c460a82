// `npm start` where no window can open: the same server (the built dist/main/server-host.js, under the supervisor
// the desktop app uses, so crashes are restarted the same way) on the same data folder, on 127.0.0.1, with the
// address to open in a browser. Ctrl-C stops it cleanly.
import path from 'node:path';
import { logsDir } from '../../server/log/logger.js';
import { desktopServerConfig, SOURCE_LAYOUT } from '../server-config.js';
import { ServerSupervisor } from '../server-supervisor.js';
import { forkNodeServer } from '../node-server-process.js';
import { SERVER_HEAP_FLAGS } from '../../server/heap-flags.js';
import { describeStartupError } from '../startup-errors.js';
import { mainTranslator } from '../i18n.js';
import { mainLogger } from '../log.js';
import { electronUserDataDir } from './user-data.js';

export async function runInBrowserMode(root: string, say: (line: string) => void): Promise<number> {
  const config = desktopServerConfig(process.env, electronUserDataDir(root), SOURCE_LAYOUT);
  const log = mainLogger(config.dataDir, false);
  log.info(`Trainbench starting without Electron (browser mode); data in ${config.dataDir}`);
  const supervisor = new ServerSupervisor({
    fork: () => forkNodeServer(path.join(root, 'dist', 'main', 'server-host.js'), { execArgv: [...SERVER_HEAP_FLAGS] }),
    config,
    log,
    onCrash: ({ restarting }) => say(`the server stopped unexpectedly${restarting ? '; restarting it' : ''} (details in ${logsDir(config.dataDir)})`),
    onRestarted: (server) => say(`the server is back: ${server.url}/`),
    onGaveUp: (reason) => {
      say(`${reason} Not restarting it: see the logs in ${logsDir(config.dataDir)}.`);
      process.exitCode = 1;
    },
  });

  let server;
  try {
    server = await supervisor.start();
  } catch (err) {
    const { title, detail } = describeStartupError(mainTranslator('en'), err, config.dataDir); // the terminal speaks English, like npm
    log.error('the server failed to start', err);
    say(`${title}: ${detail.split('\n')[0]}`);
    return 1;
  }
  log.info(`server listening on ${server.url}`);
  if (server.generatedAdminPassword) say(`first start: sign in as "${config.adminUsername}" with the password ${server.generatedAdminPassword} (shown once; change it after signing in)`);
  say(`Trainbench is running: open ${server.url}/ in your browser (Ctrl-C stops it; data in ${config.dataDir})`);

  await new Promise<void>((resolve) => {
    const stop = () => {
      say('stopping…');
      supervisor.stop().finally(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  log.info('quit');
  return Number(process.exitCode ?? 0);
}
