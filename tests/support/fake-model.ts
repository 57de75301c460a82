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
  /** The file of a multipart request (POST /v1/audio/transcriptions); its text fields are in body. */
  file?: { name: string; type: string; bytes: Buffer };
}

export interface FakeTranscription {
  text: string;
  language?: string;
  segments?: { start: number; end: number; text: string; speaker?: string }[];
}

export interface FakeModelBehaviour {
  /** The reply, streamed as one chunk per element. */
  chunks?: string[];
  /** Answer with this HTTP status and no stream (a route failing before its first token). */
  failStatus?: number;
  /** Answer one JSON completion even when a stream was asked for (servers that ignore stream: true). */
  ignoreStream?: boolean;
  /** Milliseconds between chunks. */
  delayMs?: number;
  /** Send the first chunk, then break the connection (a failure after the stream started); with delayMs, the break comes that long after the chunk. */
  dropAfterFirst?: boolean;
  /** Milliseconds between the response headers and the first chunk (a route that stalls before its first token). */
  delayFirstMs?: number;
  /** Token counts reported in a last chunk, as OpenAI does with stream_options.include_usage. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** The verbose_json answer of POST /v1/audio/transcriptions (failStatus applies there too). */
  transcription?: FakeTranscription;
  /** Keep a transcription request open, never answering, until its client goes away (a long call still being transcribed). */
  holdTranscription?: boolean;
  /** Answer a transcription request this long after it came (a long call that does end). */
  transcriptionDelayMs?: number;
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

const DEFAULT_TRANSCRIPTION: FakeTranscription = { text: 'hello trainbench', language: 'english', segments: [{ start: 0, end: 1.5, text: 'hello trainbench' }] };

/** Records a multipart transcription request and answers verbose_json as OpenAI does. */
async function answerTranscription(req: http.IncomingMessage, raw: Buffer, res: http.ServerResponse, behaviour: FakeModelBehaviour, requests: RecordedRequest[]) {
  const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData().catch(() => undefined);
  if (!form) {
    res.writeHead(400).end('bad multipart');
    return;
  }
  const body: RecordedRequest['body'] = {};
  let file: RecordedRequest['file'];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') body[name] = value;
    else file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
  }
  requests.push({ path: req.url ?? '', headers: req.headers, body, file });
  if (behaviour.holdTranscription) return;
  if (behaviour.transcriptionDelayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.transcriptionDelayMs));
  if (behaviour.failStatus) {
    res.writeHead(behaviour.failStatus, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'fake failure' } }));
    return;
  }
  const answer = behaviour.transcription ?? DEFAULT_TRANSCRIPTION;
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ task: 'transcribe', duration: 1.5, language: 'english', segments: [], ...answer }));
}

/**
 * A real OpenAI-compatible server on loopback: POST /v1/chat/completions with stream:true answers SSE chunks;
 * POST /v1/audio/transcriptions (multipart) answers verbose_json.
 */
export async function startFakeModel(initial: FakeModelBehaviour = {}): Promise<FakeModel> {
  let behaviour: FakeModelBehaviour = initial;
  const requests: RecordedRequest[] = [];
  const state = { aborted: 0 };
  const server = http.createServer(async (req, res) => {
    const pieces: Buffer[] = [];
    for await (const chunk of req) pieces.push(chunk as Buffer);
    if (req.method === 'POST' && req.url?.endsWith('/audio/transcriptions')) {
      if (behaviour.holdTranscription) res.on('close', () => state.aborted++);
      await answerTranscription(req, Buffer.concat(pieces), res, behaviour, requests);
      return;
    }
    const raw = Buffer.concat(pieces).toString('utf8');
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
    if (!body.stream || current.ignoreStream) {
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
