// readChunkForm over real HTTP on a bare Koa app: the pooled-buffer path, the temporary-file path (no buffer free)
// and every refusal, each answered in the envelope.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { envelope } from '../../server/http/envelope.js';
import { readChunkForm } from '../../server/media/media.chunk-form.js';
import { MEDIA_CHUNK_SIZE } from '../../contract/media.js';

const sha256 = (data: Uint8Array) => crypto.createHash('sha256').update(data).digest('hex');

describe('chunk forms (busboy into a pooled buffer or a temporary file)', () => {
  let base = '';
  let server: ReturnType<Koa['listen']>;
  let scratch = '';

  before(async () => {
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'chunk-form-'));
    const app = new Koa();
    app.use(envelope);
    app.use(async (ctx) => {
      // ?via=file: no buffer free, so the part goes to a file in a folder made on demand.
      const buffer = ctx.query.via === 'file' ? undefined : Buffer.alloc(MEDIA_CHUNK_SIZE);
      const form = await readChunkForm(ctx, buffer, async () => fs.mkdtemp(path.join(scratch, 'request-')));
      const bytes = form.source.kind === 'memory' ? form.source.bytes : form.source.kind === 'file' ? await fs.readFile(form.source.path) : Buffer.alloc(0);
      ctx.body = { fields: form.fields, size: form.size, kind: form.source.kind, sha256: sha256(bytes) };
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.close();
    await fs.rm(scratch, { recursive: true, force: true });
  });

  const form = (fields: Record<string, string>, files: [string, Uint8Array][]) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    for (const [name, data] of files) body.append(name, new Blob([data as Uint8Array<ArrayBuffer>]), 'chunk');
    return body;
  };
  const post = async (body: FormData | string, query = '', headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/${query}`, { method: 'POST', body, headers });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown>; error: string | null; message: string } };
  };

  for (const via of ['memory', 'file'] as const) {
    test(`fields and a full chunk arrive intact (${via})`, async () => {
      const data = crypto.randomBytes(MEDIA_CHUNK_SIZE);
      const res = await post(form({ upload_id: ' abc ', chunk_index: '3' }, [['file', data]]), via === 'file' ? '?via=file' : '');
      assert.equal(res.status, 200, res.body.message);
      assert.deepEqual(res.body.data, { fields: { upload_id: 'abc', chunk_index: '3' }, size: data.length, kind: via, sha256: sha256(data) });
    });
  }

  test('fields after the file count too, and an empty file is a chunk of 0 bytes', async () => {
    const body = new FormData();
    body.append('file', new Blob([]), 'chunk');
    body.append('chunk_index', '0');
    const res = await post(body);
    assert.equal(res.status, 200, res.body.message);
    assert.deepEqual([res.body.data.fields, res.body.data.size], [{ chunk_index: '0' }, 0]);
  });

  test('refusals are 400s in the envelope', async () => {
    const one = crypto.randomBytes(10);
    const cases: [string, FormData | string, string, Record<string, string>?][] = [
      ['over one chunk', form({}, [['file', crypto.randomBytes(MEDIA_CHUNK_SIZE + 1)]]), 'media.chunk_size_mismatch'],
      ['over one chunk, to a file', form({}, [['file', crypto.randomBytes(MEDIA_CHUNK_SIZE + 1)]]), 'media.chunk_size_mismatch'],
      ['no file', form({ upload_id: 'abc' }, []), 'validation_failed'],
      ['the file in another field', form({}, [['blob', one]]), 'bad_request'],
      ['two files', form({}, [['file', one], ['file', one]]), 'bad_request'],
      ['not multipart', 'upload_id=abc', 'validation_failed', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['no boundary', 'x', 'bad_request', { 'content-type': 'multipart/form-data' }],
      ['cut off before the closing boundary', '--b\r\nContent-Disposition: form-data; name="file"; filename="c"\r\n\r\nabc', 'bad_request', { 'content-type': 'multipart/form-data; boundary=b' }],
    ];
    for (const [label, body, error, headers] of cases) {
      const res = await post(body, label.endsWith('to a file') ? '?via=file' : '', headers);
      assert.deepEqual([res.status, res.body.error], [400, error], `${label}: ${res.body.message}`);
    }
  });
});
