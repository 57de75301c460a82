// A central cluster for tests and benches: N real server processes (`npm run server`'s entry) started at the same
// moment on one fresh PostgreSQL schema and one s3rver bucket, each with its own DATA_DIR, behind a round-robin HTTP
// proxy on loopback (each request to the next node, as a load balancer without affinity does).
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import knexFactory from 'knex';
import { startCli, stopCli, type StartedCli } from './cli.js';
import { startS3, type RunningS3 } from './s3.js';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Cluster {
  /** The proxy's URL: what clients use. */
  url: string;
  nodes: StartedCli[];
  dataDirs: string[];
  schema: string;
  s3: RunningS3;
  /** Starts node i again (after a kill) on its own DATA_DIR. */
  restart(i: number): Promise<StartedCli>;
  close(): Promise<void>;
}

/** Forwards each request to the next upstream in turn; a node that is down is skipped. */
export async function roundRobinProxy(upstreams: () => string[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const attempt = (tries: number) => {
      const list = upstreams();
      const target = new URL(list[next++ % list.length]!);
      const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => {
        // Refused before anything was sent (a killed node): the next node gets it, as a load balancer would.
        if (tries < list.length && !res.headersSent && req.readableEnded === false) attempt(tries + 1);
        else if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      });
      req.pipe(upstream);
    };
    attempt(1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

export async function startCluster(size: number, env: Record<string, string> = {}): Promise<Cluster> {
  const schema = `tb_${crypto.randomBytes(6).toString('hex')}`;
  const s3 = await startS3({ bucket: `cluster-${crypto.randomBytes(4).toString('hex')}` });
  const dataDirs = await Promise.all(Array.from({ length: size }, () => fs.mkdtemp(path.join(os.tmpdir(), 'trainbench-node-'))));
  const envOf = (dataDir: string) => ({
    ...s3.env,
    DATA_DIR: dataDir,
    PORT: '0',
    KNOWLEDGE_DIR: path.join(dataDir, 'knowledge'),
    DATABASE_URL: POSTGRES_URL,
    DATABASE_SCHEMA: schema,
    ADMIN_PASSWORD: 'admin-pass-123',
    JWT_SECRET: '',
    ...env,
  });
  const nodes = await Promise.all(dataDirs.map((dir) => startCli(envOf(dir))));
  const proxy = await roundRobinProxy(() => nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null).map((n) => n.url));
  return {
    url: proxy.url,
    nodes,
    dataDirs,
    schema,
    s3,
    async restart(i) {
      nodes[i] = await startCli(envOf(dataDirs[i]!));
      return nodes[i]!;
    },
    async close() {
      await proxy.close();
      await Promise.all(nodes.map((node) => stopCli(node.child)));
      const admin = knexFactory({ client: 'pg', connection: POSTGRES_URL });
      for (const each of [schema, `${schema}_jobs`]) await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [each]);
      await admin.destroy();
      await s3.close();
      for (const dir of dataDirs) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** The files a node keeps in its DATA_DIR beyond its logs and identity: a stateless node on S3 keeps none. */
export async function userFilesIn(dataDir: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of (await fs.readdir(dataDir, { recursive: true })) as string[]) {
    if ((await fs.stat(path.join(dataDir, name))).isFile() && !/^(logs\/|node-id$|server\.running$)/.test(name)) found.push(name);
  }
  return found;
}
