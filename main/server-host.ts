// The embedded server's own process: Electron's utilityProcess in the desktop app, a Node child process when
// `npm start` runs without Electron. Main sends `start` with the configuration; this answers `server-started`
// once listening (as Actual's forked server does), serves main's requests, and on `stop` closes the server (the
// SQLite write-ahead log checkpointed, the database closed) and exits. Nothing here imports Electron.
import type { RunningServer } from '../server/start.js';
import { startServer } from '../server/start.js';
import { readConfigValue } from '../server/system/config.service.js';
import { asLogger, captureConsole, consoleLogger, serverStructuredLog } from '../server/log/logger.js';
import { installServerLog } from '../server/log/structured.js';
import type { FromServer, ServerRequestName, ServerRequests, ToServer } from './server-protocol.js';

interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

/** Electron's process.parentPort in a utility process; the IPC channel of child_process.fork otherwise. */
function parentChannel(): { post(message: FromServer): void; onMessage(listener: (message: ToServer) => void): void } {
  const port = (process as { parentPort?: ParentPort }).parentPort;
  if (port) return { post: (m) => port.postMessage(m), onMessage: (fn) => port.on('message', (e) => fn(e.data as ToServer)) };
  if (process.send) return { post: (m) => process.send!(m), onMessage: (fn) => process.on('message', (m) => fn(m as ToServer)) };
  throw new Error('server-host.ts runs as a child process of the app, not on its own');
}

const channel = parentChannel();
let server: RunningServer | undefined;
let stopping: Promise<void> | undefined;

const answers: { [N in ServerRequestName]: (server: RunningServer) => Promise<ServerRequests[N]> } = {
  'update-base-url': (s) => readConfigValue<string>(s.db, 'update_base_url'),
};

async function start(config: Extract<ToServer, { type: 'start' }>['config']): Promise<void> {
  const structured = serverStructuredLog({ ...config, logTarget: 'file' });
  installServerLog(structured);
  captureConsole(asLogger(structured));
  try {
    server = await startServer(config, { log: consoleLogger });
  } catch (err) {
    const e = err as { message?: string; code?: unknown };
    console.error('the server could not start', err);
    // Main answers with `stop` (exiting here could lose the message on its way out).
    channel.post({ type: 'server-failed', error: { message: e?.message ?? String(err), ...(typeof e?.code === 'string' ? { code: e.code } : {}) } });
    return;
  }
  channel.post({ type: 'server-started', url: server.url, port: server.port, generatedAdminPassword: server.generatedAdminPassword, recovered: server.recoveredFromUncleanStop, about: server.about });
}

function stop(): Promise<void> {
  stopping ??= (server?.close() ?? Promise.resolve())
    .catch((err: unknown) => console.error('stopping the server failed', err))
    .finally(() => process.exit(0));
  return stopping;
}

channel.onMessage((message) => {
  switch (message.type) {
    case 'start':
      void start(message.config);
      break;
    case 'stop':
      void stop();
      break;
    case 'update-status':
      server?.updates.report(message.status);
      break;
    case 'request': {
      const answer = server ? answers[message.name](server) : Promise.reject(new Error('the server is not running'));
      answer.then(
        (value) => channel.post({ type: 'reply', id: message.id, value }),
        (err: unknown) => channel.post({ type: 'reply', id: message.id, error: err instanceof Error ? err.message : String(err) }),
      );
      break;
    }
  }
});

// The app went away without saying stop (a Node parent killed): close as on stop rather than linger.
process.on('disconnect', () => void stop());
// Ctrl-C in a terminal reaches the whole process group: the app decides when this process stops (with `stop`).
process.on('SIGINT', () => {});
// Last words into server.log (synchronously), then exit: main logs the crash and starts a fresh server.
process.on('uncaughtException', (err) => {
  console.error('uncaught exception: the server process stops', err);
  process.exit(70);
});
