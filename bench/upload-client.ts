// A chunked-upload client as fast as the loopback allows (the client must not be the bottleneck): each chunk is
// written straight to a keep-alive socket from a buffer reused once its request is answered.
import crypto from 'node:crypto';
import http from 'node:http';

export const CHUNK = 5_242_880;

/** The two ways a chunk can be sent: the spec's multipart form, or the raw body with the fields in the query. */
export type Encoding = 'multipart' | 'raw';

export interface UploadPattern {
  encoding: Encoding;
  /** Chunks in flight at once: 1 is the contract's plain client (one after another), 2 a browser-side uploader. */
  inFlight: number;
}

export const describePattern = ({ encoding, inFlight }: UploadPattern) =>
  `${encoding}, ${inFlight === 1 ? 'one after another' : `${inFlight} in flight`}`;

export interface UploadTiming {
  seconds: number;
  /** The share of `seconds` spent in complete. */
  completeSeconds: number;
}

async function api<T>(url: string, token: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const json = (await res.json()) as { data: T; message: string };
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${json.message}`);
  return json.data;
}

/** A boundary as Chromium (the Electron renderer) makes them: the parser's speed depends on its characters. */
const browserBoundary = () => `----WebKitFormBoundary${crypto.randomBytes(12).toString('base64').replace(/[+/]/g, 'x')}`;

interface ChunkRequest {
  path: string;
  contentType: string;
  parts: Buffer[];
}

function chunkRequest(encoding: Encoding, uploadId: string, index: number, data: Buffer): ChunkRequest {
  if (encoding === 'raw') {
    return { path: `/api/media/upload/chunk?upload_id=${uploadId}&chunk_index=${index}`, contentType: 'application/octet-stream', parts: [data] };
  }
  const boundary = browserBoundary();
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = field('upload_id', uploadId) + field('chunk_index', String(index)) +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="chunk"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { path: '/api/media/upload/chunk', contentType: `multipart/form-data; boundary=${boundary}`, parts: [Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)] };
}

function postChunk(url: string, agent: http.Agent, token: string, chunk: ChunkRequest): Promise<void> {
  const length = chunk.parts.reduce((sum, part) => sum + part.length, 0);
  return new Promise((resolve, reject) => {
    const req = http.request(url + chunk.path, { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': chunk.contentType, 'content-length': length } });
    req.on('response', (res) => {
      const body: Buffer[] = [];
      res.on('data', (part: Buffer) => body.push(part));
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${chunk.path}: ${res.statusCode} ${Buffer.concat(body)}`))));
    });
    req.on('error', reject);
    for (const part of chunk.parts) req.write(part);
    req.end();
  });
}

/** init, every chunk, complete: the whole upload of `size` random bytes as a client sees it. */
export async function chunkedUpload(url: string, token: string, size: number, { encoding, inFlight }: UploadPattern): Promise<UploadTiming> {
  const block = crypto.randomBytes(CHUNK);
  const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight });
  const started = process.hrtime.bigint();
  const session = await api<{ upload_id: string; chunk_count: number }>(`${url}/api/media/upload/init`, token, { filename: 'bench.mp4', file_size: size, bind_type: 'none' });
  let next = 0;
  const worker = async () => {
    const own = Buffer.from(block);
    for (let index = next++; index < session.chunk_count; index = next++) {
      const data = own.subarray(0, Math.min(CHUNK, size - index * CHUNK));
      data.writeUInt32BE(index, 0);
      await postChunk(url, agent, token, chunkRequest(encoding, session.upload_id, index, data));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const chunksDone = process.hrtime.bigint();
  const media = await api<{ size: number }>(`${url}/api/media/upload/complete`, token, { upload_id: session.upload_id });
  const finished = process.hrtime.bigint();
  agent.destroy();
  if (media.size !== size) throw new Error(`merged size ${media.size}, expected ${size}`);
  return { seconds: Number(finished - started) / 1e9, completeSeconds: Number(finished - chunksDone) / 1e9 };
}
