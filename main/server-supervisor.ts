// Runs the embedded server in a process of its own (Electron's utilityProcess, or a Node child process without
// Electron) so that a crash or a long computation in the server never freezes or takes down the window. Starts
// it and waits for `server-started`; when it dies unexpectedly, logs the crash with its last output and starts a
// new one on the same port, at most `maxRestarts` times in `windowMs`. There is never more than one server
// process: a new one is forked only after the previous one has exited, so one process writes the SQLite file.
import type { AppConfig } from '../server/config.js';
import type { Logger } from '../server/log/logger.js';
import type { FromServer, ServerRequestName, ServerRequests, ServerStarted, ToServer } from './server-protocol.js';

/** The shape of Electron's UtilityProcess that is used here (a Node ChildProcess is adapted to it). */
export interface ServerProcess {
  readonly pid?: number | undefined;
  postMessage(message: ToServer): void;
  on(event: 'spawn', listener: () => void): unknown;
  on(event: 'message', listener: (message: FromServer) => void): unknown;
  /** Electron gives the exit code only; the Node adapter adds the signal. */
  on(event: 'exit', listener: (code: number | null, signal?: string | null) => void): unknown;
  kill(): boolean;
  readonly stdout?: NodeJS.ReadableStream | null;
  readonly stderr?: NodeJS.ReadableStream | null;
}

export interface CrashReport {
  code: number | null;
  signal: string | null;
  /** The process's last lines of output. */
  output: string;
  /** Whether a new server is being started (false once the restart budget is spent). */
  restarting: boolean;
}

export interface SupervisorOptions {
  fork: () => ServerProcess;
  config: AppConfig;
  log: Logger;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
  maxRestarts?: number;
  windowMs?: number;
  restartDelayMs?: number;
  now?: () => number;
  /** Every unexpected exit, whether or not a restart follows. */
  onCrash?: (crash: CrashReport) => void;
  onRestarted?: (server: ServerStarted) => void;
  /** A restart was due but failed, or the budget was spent: the app has no server until retry(). */
  onGaveUp?: (reason: string) => void;
  /** Each line the server process prints (the launcher shows them; the desktop app keeps them for crash reports only). */
  onOutput?: (line: string) => void;
}

/** A start that did not reach `server-started`: `code` is the error code the server reported, when it did. */
export class ServerStartError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ServerStartError';
  }
}

/** The last lines a process printed, bounded. */
class OutputTail {
  private lines: string[] = [];
  private partial = '';
  constructor(private readonly onLine?: (line: string) => void) {}
  push(chunk: Buffer | string): void {
    const parts = (this.partial + chunk.toString()).split('\n');
    this.partial = parts.pop()!.slice(-4096);
    for (const line of parts) {
      this.onLine?.(line);
      this.lines.push(line.slice(0, 2000));
    }
    if (this.lines.length > 40) this.lines.splice(0, this.lines.length - 40);
  }
  text(): string {
    return [...this.lines, this.partial].filter(Boolean).join('\n');
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

export class ServerSupervisor {
  private child: ServerProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private started: ServerStarted | null = null;
  private stopping: Promise<void> | null = null;
  private restarts: number[] = [];
  private requests = new Map<number, Pending>();
  private nextRequest = 1;
  private lastUpdateStatus: ToServer | null = null;
  private config: AppConfig;

  constructor(private readonly options: SupervisorOptions) {
    this.config = options.config;
  }

  /** The running server, or null while there is none (starting, restarting, given up, stopped). */
  get current(): ServerStarted | null {
    return this.started;
  }

  /** Starts the server; rejects with ServerStartError when it cannot start. */
  async start(): Promise<ServerStarted> {
    const started = await this.launch();
    // A restart must come back where the window already points.
    this.config = { ...this.config, port: started.port };
    return started;
  }

  /** Starts again after the restart budget was spent (the user asked to). */
  async retry(): Promise<ServerStarted> {
    this.restarts = [];
    const started = await this.launch();
    this.options.onRestarted?.(started);
    return started;
  }

  /** Asks the server to close (checkpoint, close the database) and waits for its process to exit. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const child = this.child;
      if (!child) return;
      const { stopTimeoutMs = 15_000 } = this.options;
      child.postMessage({ type: 'stop' });
      const timer = setTimeout(() => {
        this.options.log.error(`the server did not stop within ${stopTimeoutMs / 1000} s: ending its process`);
        child.kill();
      }, stopTimeoutMs);
      await this.exited;
      clearTimeout(timer);
    })();
    return this.stopping;
  }

  /** Sends the desktop's update state to the server (for GET /api/system/update-status); sent again after a restart. */
  reportUpdateStatus(status: Extract<ToServer, { type: 'update-status' }>['status']): void {
    this.lastUpdateStatus = { type: 'update-status', status };
    this.child?.postMessage(this.lastUpdateStatus);
  }

  request<N extends ServerRequestName>(name: N): Promise<ServerRequests[N]> {
    const child = this.child;
    if (!child || !this.started) return Promise.reject(new Error('the server is not running'));
    const id = this.nextRequest++;
    return new Promise((resolve, reject) => {
      this.requests.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.postMessage({ type: 'request', id, name });
    });
  }

  private launch(): Promise<ServerStarted> {
    const { fork, startTimeoutMs = 60_000, onOutput } = this.options;
    const child = fork();
    this.child = child;
    const tail = new OutputTail(onOutput);
    child.stdout?.on('data', (chunk: Buffer) => tail.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => tail.push(chunk));
    let markExited!: () => void;
    this.exited = new Promise((resolve) => (markExited = resolve));

    return new Promise<ServerStarted>((resolve, reject) => {
      let starting = true;
      // Only a server that was up can crash; the exit after a failed start is the one asked for.
      let ready = false;
      const failStart = (err: ServerStartError) => {
        if (!starting) return;
        starting = false;
        clearTimeout(timer);
        reject(err);
      };
      const timer = setTimeout(() => {
        failStart(new ServerStartError(`the server did not start within ${startTimeoutMs / 1000} s`));
        child.kill();
      }, startTimeoutMs);

      child.on('spawn', () => child.postMessage({ type: 'start', config: this.config }));
      child.on('message', (message) => {
        if (message.type === 'server-started') {
          if (!starting) return;
          starting = false;
          ready = true;
          clearTimeout(timer);
          const { type: _type, ...started } = message;
          this.started = started;
          if (this.lastUpdateStatus) child.postMessage(this.lastUpdateStatus);
          resolve(started);
        } else if (message.type === 'server-failed') {
          failStart(new ServerStartError(message.error.message, message.error.code));
          child.postMessage({ type: 'stop' });
        } else if (message.type === 'reply') {
          const pending = this.requests.get(message.id);
          this.requests.delete(message.id);
          if (message.error !== undefined) pending?.reject(new Error(message.error));
          else pending?.resolve(message.value);
        }
      });
      child.on('exit', (code, signal = null) => {
        this.child = null;
        this.started = null;
        for (const pending of this.requests.values()) pending.reject(new Error('the server process exited'));
        this.requests.clear();
        markExited();
        if (starting) {
          const output = tail.text();
          failStart(new ServerStartError(`the server process exited (${describeExit(code, signal)}) before it was ready${output ? `:\n${output}` : ''}`));
        } else if (ready && !this.stopping) {
          this.crashed({ code, signal, output: tail.text() });
        }
      });
    });
  }

  private crashed({ code, signal, output }: Omit<CrashReport, 'restarting'>): void {
    const { log, maxRestarts = 3, windowMs = 60_000, restartDelayMs = 1000, now = Date.now } = this.options;
    const at = now();
    this.restarts = this.restarts.filter((t) => at - t < windowMs);
    const restarting = this.restarts.length < maxRestarts;
    log.error(
      `the server process stopped unexpectedly (${describeExit(code, signal)}); ` +
        (restarting ? `restarting it (restart ${this.restarts.length + 1} of at most ${maxRestarts} a minute)` : `it stopped ${maxRestarts + 1} times within a minute: not restarting it`) +
        (output ? `. Its last output:\n${output}` : ''),
    );
    this.options.onCrash?.({ code, signal, output, restarting });
    if (!restarting) {
      this.options.onGaveUp?.(`The local server stopped ${maxRestarts + 1} times within a minute.`);
      return;
    }
    this.restarts.push(at);
    setTimeout(() => {
      if (this.stopping) return;
      this.launch().then(
        (started) => {
          log.info(`the server is back on ${started.url}`);
          this.options.onRestarted?.(started);
        },
        // A failed restart is one more stop: tried again while the budget lasts.
        (err: Error) => this.crashed({ code: null, signal: null, output: err.message }),
      );
    }, restartDelayMs);
  }
}

function describeExit(code: number | null, signal: string | null): string {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}
