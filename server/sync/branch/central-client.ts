// Branch: HTTP(S) requests to the central server, with an optional extra CA certificate; https only, http on loopback.
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import net from 'node:net';
import type { z } from 'zod';
import { AppError } from '../../http/errors.js';
import { SyncErrorCode } from '../../../contract/sync.js';
import { appVersion } from '../../system/update-status.js';

export interface Central {
  url: string;
  ca?: string | null;
  credential?: string;
}

/** The central server did not answer (network), or answered with an error envelope. */
export class CentralError extends Error {
  constructor(
    message: string,
    readonly unreachable: boolean,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const isLoopback = (hostname: string): boolean => LOOPBACK_NAMES.has(hostname) || (net.isIPv4(hostname) && hostname.startsWith('127.'));

/** https://, or http:// on loopback only; an extra CA must be PEM. Returns the URL without a trailing slash. */
export function checkCentral(url: string, ca?: string | null): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError(400, SyncErrorCode.insecureUrl, 'The central URL is not a URL');
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopback(parsed.hostname))) {
    throw new AppError(400, SyncErrorCode.insecureUrl, 'The central server must be reached over https:// (http:// only on this machine)');
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) throw new AppError(400, SyncErrorCode.insecureUrl, 'The central URL must not carry credentials, a query or a fragment');
  if (ca && !/-----BEGIN CERTIFICATE-----/.test(ca)) throw new AppError(400, SyncErrorCode.insecureUrl, 'The CA certificate must be PEM');
  return parsed.origin + parsed.pathname.replace(/\/+$/, '');
}

const agents = new Map<string, https.Agent>();
function agentFor(ca: string | null | undefined): https.Agent | undefined {
  if (!ca) return undefined;
  let agent = agents.get(ca);
  if (!agent) agents.set(ca, (agent = new https.Agent({ keepAlive: true, ca: [...tls.rootCertificates, ca] })));
  return agent;
}

const IDLE_TIMEOUT_MS = 60_000;

/** Starts a request; resolves with the response once its headers arrive. */
export function request(
  central: Central,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; stream?: NodeJS.ReadableStream } = {},
): Promise<http.IncomingMessage> {
  const url = new URL(central.url + path);
  const body = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string> = { 'x-trainbench-version': appVersion(), ...options.headers };
  if (central.credential) headers.authorization = `Device ${central.credential}`;
  if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(body.length) });
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers, agent: url.protocol === 'https:' ? agentFor(central.ca) : undefined, timeout: IDLE_TIMEOUT_MS }, resolve);
    req.on('timeout', () => req.destroy(new Error('the central server stopped answering')));
    req.on('error', (err) => reject(new CentralError(`The central server cannot be reached: ${err.message}`, true)));
    if (options.stream) {
      options.stream.on('error', (err) => req.destroy(err));
      options.stream.pipe(req);
    } else req.end(body);
  });
}

async function readAll(res: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of res) chunks.push(chunk as Buffer);
  } catch (err) {
    throw new CentralError(`The connection to the central server was cut: ${(err as Error).message}`, true);
  }
  return Buffer.concat(chunks);
}

/** Turns an error response into a CentralError (the envelope's code and message when there is one). */
export async function failed(res: http.IncomingMessage): Promise<CentralError> {
  const text = (await readAll(res)).toString('utf8');
  let envelope: { error?: string; message?: string } = {};
  try {
    envelope = JSON.parse(text);
  } catch {
    // not an envelope (a proxy's error page)
  }
  const status = res.statusCode ?? 0;
  return new CentralError(envelope.message ?? `The central server answered ${status}`, status === 502 || status === 503 || status === 504, status, envelope.error);
}

/** A JSON call (or a stream sent as the body); resolves with the envelope's data. */
export async function callCentral<S extends z.ZodType>(
  central: Central,
  method: string,
  path: string,
  answer: S,
  body?: unknown,
  upload?: { stream: NodeJS.ReadableStream; headers: Record<string, string> },
): Promise<z.output<S>> {
  const res = await request(central, method, path, upload ? { stream: upload.stream, headers: upload.headers } : { body });
  if ((res.statusCode ?? 0) >= 400) throw await failed(res);
  const text = (await readAll(res)).toString('utf8');
  let data: unknown;
  try {
    data = (JSON.parse(text) as { data?: unknown } | null)?.data;
  } catch {
    throw new CentralError('The central server answered something that is not JSON', false, res.statusCode);
  }
  const parsed = answer.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` (${issue.path.join('.')}: ${issue.message})` : '';
    throw new CentralError(`The central server's answer to ${method} ${path.split('?')[0]} is not what a Trainbench central server sends${where}: is the URL right?`, false, res.statusCode);
  }
  return parsed.data;
}
