// The baseline server: a bare Koa app answering a constant JSON, in a process of its own like the real server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const app = new Koa();
app.use((ctx) => {
  ctx.body = { data: { ok: true }, error: null, message: 'success' };
});
const server = http.createServer(app.callback());
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
