import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model?: string;
    stream?: boolean;
    messages?: { role: string; content: string }[];
    [key: string]: unknown;
  };
}

export interface FakeModelBehaviour {
  /** The reply, streamed as one chunk per element. */
  chunks?: string[];
  /** Answer with this HTTP status and no stream (a route failing before its first token). */
  failStatus?: number;
  /** Milliseconds between chunks. */
  delayMs?: number;
  /** Send the first chunk, then break the connection (a failure after the stream started); with delayMs, the break comes that long after the chunk. */
  dropAfterFirst?: boolean;
  /** Milliseconds between the response headers and the first chunk (a route that stalls before its first token). */
  delayFirstMs?: number;
  /** Token counts reported in a last chunk, as OpenAI does with stream_options.include_usage. */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface FakeModel {
  /** The base_url to configure: http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Requests whose client went away before the reply finished. */
  aborted: number;
  behave(behaviour: FakeModelBehaviour): void;
  close(): Promise<void>;
}

/** A real OpenAI-compatible server on loopback: POST /v1/chat/completions with stream:true answers SSE chunks. */
export async function startFakeModel(initial: FakeModelBehaviour = {}): Promise<FakeModel> {
  let behaviour: FakeModelBehaviour = initial;
  const requests: RecordedRequest[] = [];
  const state = { aborted: 0 };
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let body: RecordedRequest['body'] = {};
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400).end('bad json');
      return;
    }
    requests.push({ path: req.url ?? '', headers: req.headers, body });
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const current = behaviour;
    if (current.failStatus) {
      res.writeHead(current.failStatus, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'fake failure' } }));
      return;
    }
    const chunks = current.chunks ?? ['Hello', ' from', ' the fake model.'];
    let finished = false;
    res.on('close', () => {
      if (!finished) state.aborted++;
    });
    if (!body.stream) {
      finished = true;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id: 'fake', object: 'chat.completion', model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: chunks.join('') }, finish_reason: 'stop' }] }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    if (current.delayFirstMs) await new Promise((r) => setTimeout(r, current.delayFirstMs));
    for (const [i, piece] of chunks.entries()) {
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify({ id: 'fake', object: 'chat.completion.chunk', model: body.model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
      if (current.delayMs) await new Promise((r) => setTimeout(r, current.delayMs));
      if (current.dropAfterFirst && i === 0) {
        res.socket?.destroy();
        return;
      }
    }
    if (res.destroyed) return;
    res.write(`data: ${JSON.stringify({ id: 'fake', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    if (current.usage) res.write(`data: ${JSON.stringify({ id: 'fake', object: 'chat.completion.chunk', choices: [], usage: current.usage })}\n\n`);
    res.write('data: [DONE]\n\n');
    finished = true;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get aborted() {
      return state.aborted;
    },
    behave(next) {
      behaviour = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
