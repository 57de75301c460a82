// What the main process and the server's own process (server-host.ts) say to each other. Types only.
import type { AppConfig } from '../server/config.js';
import type { ServerAbout } from '../server/start.js';
import type { UpdateStatus } from '../contract/system.js';

/** Requests main may make of the running server, and what each answers. */
export interface ServerRequests {
  /** The update_base_url system parameter ('' when unset). */
  'update-base-url': string;
}
export type ServerRequestName = keyof ServerRequests;

/** main → server */
export type ToServer =
  | { type: 'start'; config: AppConfig }
  | { type: 'stop' }
  | { type: 'update-status'; status: UpdateStatus }
  | { type: 'request'; id: number; name: ServerRequestName };

/** What main learns when the server is listening. */
export interface ServerStarted {
  url: string;
  port: number;
  /** Set when this start created the admin with a generated password (first start only). */
  generatedAdminPassword?: string;
  /** The previous server on this data folder had not stopped cleanly. */
  recovered: boolean;
  about: ServerAbout;
}

/** server → main */
export type FromServer =
  | ({ type: 'server-started' } & ServerStarted)
  | { type: 'server-failed'; error: { message: string; code?: string } }
  | { type: 'reply'; id: number; value?: unknown; error?: string };
