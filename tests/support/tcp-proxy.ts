// A TCP proxy on loopback that can cut a connection at a chosen moment: once a request's answer starts coming back
// (the request reached the server, its answer never reaches the client), or after some bytes of an answer.
import net from 'node:net';

export interface Cut {
  /** The request line starts with this (e.g. `POST /api/sync/push`). */
  request: string;
  /** Bytes of the answer let through before the cut (0: none). */
  afterBytes: number;
  /** Instead: bytes of the request (head and body) let through before the cut, as when an upload's link drops. */
  afterRequestBytes?: number;
}

export interface TcpProxy {
  url: string;
  /** Where connections go (the server can restart on another port). */
  target: number;
  /** Cuts the next connection whose request matches; resolves when it was cut. */
  cutNext(cut: Cut): Promise<void>;
  /** Request heads seen, in order (method, path and headers). */
  requests: string[];
  close(): Promise<void>;
}

export async function startTcpProxy(target: number): Promise<TcpProxy> {
  let armed: { cut: Cut; done: () => void } | undefined;
  const sockets = new Set<net.Socket>();
  const proxy: TcpProxy = {
    url: '',
    target,
    requests: [],
    cutNext: (cut) => new Promise<void>((resolve) => (armed = { cut, done: resolve })),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(proxy.target, '127.0.0.1');
    sockets.add(client).add(upstream);
    let cutting: { cut: Cut; done: () => void; sent: number } | undefined;
    client.on('data', (chunk: Buffer) => {
      const head = chunk.toString('latin1', 0, Math.min(chunk.length, 2000));
      if (/^[A-Z]+ \//.test(head)) {
        proxy.requests.push(head.split('\r\n\r\n')[0]!);
        if (armed && head.startsWith(armed.cut.request)) {
          cutting = { ...armed, sent: 0 };
          armed = undefined;
        }
      }
      const limit = cutting?.cut.afterRequestBytes;
      if (cutting && limit !== undefined) {
        upstream.write(chunk.subarray(0, Math.max(0, limit - cutting.sent)));
        cutting.sent += chunk.length;
        if (cutting.sent >= limit) {
          const { done } = cutting;
          client.resetAndDestroy();
          upstream.destroy();
          done();
        }
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!cutting || cutting.cut.afterRequestBytes !== undefined) return void client.write(chunk);
      const room = cutting.cut.afterBytes - cutting.sent;
      if (room > 0) client.write(chunk.subarray(0, room));
      cutting.sent += Math.min(room, chunk.length);
      if (cutting.sent >= cutting.cut.afterBytes) {
        // The bytes let through reach the client, then the connection ends in the middle of the answer (with nothing
        // let through it is reset at once), as when a link drops.
        const { done } = cutting;
        upstream.destroy();
        if (cutting.cut.afterBytes === 0) client.resetAndDestroy();
        else client.end();
        done();
      }
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  proxy.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return proxy;
}
