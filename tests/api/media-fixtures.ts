// Helpers shared by the media test files: multipart forms, chunk sending, approval, downloads and hashes.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import type { ApiClient, ApiResponse } from '../support/client.js';

export const CHUNK = 5_242_880;

export const sha256 = (data: Uint8Array): string => crypto.createHash('sha256').update(data).digest('hex');

/** A multipart form: text fields first, then the file (as browsers and our clients send them). */
export function form(fields: Record<string, string | number>, file?: { name: string; data: Uint8Array }): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, String(value));
  if (file) body.append('file', new Blob([file.data as Uint8Array<ArrayBuffer>]), file.name);
  return body;
}

export const upload = (api: ApiClient, token: string, name: string, data: Uint8Array, fields: Record<string, string | number> = { bind_type: 'none' }) =>
  api.post('/api/media/upload', { token, form: form(fields, { name, data }) });

export async function uploadOk(api: ApiClient, token: string, name: string, data: Uint8Array, fields?: Record<string, string | number>): Promise<number> {
  const res = await upload(api, token, name, data, fields);
  if (res.status !== 201) throw new Error(`upload of ${name} failed: ${res.status} ${res.text}`);
  return res.body.data.id as number;
}

export async function approve(api: ApiClient, adminToken: string, id: number): Promise<ApiResponse> {
  const res = await api.post(`/api/media/audit/${id}`, { token: adminToken, body: { action: 'approve' } });
  if (res.status !== 200) throw new Error(`approve of ${id} failed: ${res.status} ${res.text}`);
  return res;
}

export const sendChunk = (api: ApiClient, token: string, uploadId: string, index: number | string, data: Uint8Array, route = '/api/media/upload/chunk') =>
  api.post(route, { token, form: form({ upload_id: uploadId, chunk_index: index }, { name: 'blob', data }) });

/** Polls the status endpoint until the background extraction has settled (bounded number of polls, no timing assertion). */
export async function settledExtraction(api: ApiClient, token: string, id: number) {
  for (let poll = 0; poll < 600; poll++) {
    const res = await api.get(`/api/media/status/${id}`, { token });
    const state = res.body.data?.extraction?.state;
    if (state !== 'queued' && state !== 'running') return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`extraction of media ${id} did not settle`);
}

/** GETs a URL relative to the server and hashes the body as it streams. */
export async function downloadSha256(baseUrl: string, url: string): Promise<{ status: number; sha256: string; bytes: number }> {
  const res = await fetch(baseUrl + url);
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const reader = res.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    hash.update(read.value);
    bytes += read.value.length;
  }
  return { status: res.status, sha256: hash.digest('hex'), bytes };
}

/** Every file below dir, relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** A real PDF made with pdfkit: one page per line. */
export function pdf(lines: string[]): Promise<Uint8Array> {
  const doc = new PDFDocument();
  const parts: Buffer[] = [];
  doc.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise<Uint8Array>((resolve) => doc.on('end', () => resolve(Buffer.concat(parts))));
  lines.forEach((line, i) => (i ? doc.addPage().text(line) : doc.text(line)));
  doc.end();
  return done;
}
