import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import * as tar from 'tar';
import { AppError } from '../http/errors.js';
import { verifySignature, type PackSigner } from './signing.js';
import { readFileHead } from '../file-head.js';

export const PACK_FORMAT = 'trainbench-knowledge-pack';

export interface PackEntry {
  /** Path inside the pack (sources/… or media/…). */
  path: string;
  size: number;
  sha256: string;
}

export interface PackSource extends PackEntry {
  file_path: string;
  title: string;
  domain: string;
}

export interface PackMedia extends PackEntry {
  filename: string;
  file_ext: string;
  mime_type: string;
  bind_type: string;
  /** What the binding points at, portable across installs: the product's code or the course's title. */
  bind_ref?: string;
}

export interface PackManifest {
  format: typeof PACK_FORMAT;
  version: 1;
  created_at: string;
  public_key: string;
  sources: PackSource[];
  media: PackMedia[];
}

const MANIFEST = 'manifest.json';
const SIGNATURE = 'manifest.sig';

export const packError = (message: string) => new AppError(400, 'pack_invalid', message);

export { sha256OfFile as sha256File } from '../storage/sha256.js';

/** Puts a file into the staging folder without copying it when the filesystem allows a hard link. */
async function stage(from: string, to: string): Promise<void> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.link(from, to);
  } catch {
    await fs.copyFile(from, to);
  }
}

/** Writes a gzip'd tar: manifest.json, its ed25519 signature, and every listed file. */
export async function writePack(
  outFile: string,
  stagingDir: string,
  manifest: Omit<PackManifest, 'format' | 'version' | 'public_key'>,
  files: Map<string, string>,
  signer: PackSigner,
): Promise<PackManifest> {
  await fs.mkdir(stagingDir, { recursive: true });
  for (const [inPack, source] of files) await stage(source, path.join(stagingDir, inPack));
  const full: PackManifest = { format: PACK_FORMAT, version: 1, public_key: signer.publicKey, ...manifest };
  const bytes = Buffer.from(JSON.stringify(full, null, 2));
  await fs.writeFile(path.join(stagingDir, MANIFEST), bytes);
  await fs.writeFile(path.join(stagingDir, SIGNATURE), signer.sign(bytes));
  await tar.create({ gzip: true, file: outFile, cwd: stagingDir, portable: true }, [MANIFEST, SIGNATURE, ...files.keys()]);
  return full;
}

const SAFE_PATH = /^(sources|media)\/[A-Za-z0-9._-]+$/;
/** A manifest is a list of entries: anything near this size is not one of ours. */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

export interface ReadPackOptions {
  /** Largest total size of the unpacked files: a pack (a gzip bomb) declaring more is refused before filling the disk. */
  maxBytes?: number;
}

function checkManifest(value: unknown): PackManifest {
  const m = value as PackManifest;
  if (!m || m.format !== PACK_FORMAT || m.version !== 1 || typeof m.public_key !== 'string' || !Array.isArray(m.sources) || !Array.isArray(m.media)) {
    throw packError('The manifest is not a Trainbench knowledge pack manifest');
  }
  for (const entry of [...m.sources, ...m.media]) {
    if (!entry || typeof entry.path !== 'string' || !SAFE_PATH.test(entry.path) || typeof entry.sha256 !== 'string' || !Number.isSafeInteger(entry.size)) {
      throw packError('The manifest lists an invalid file entry');
    }
  }
  return m;
}

interface Unpacked {
  size: number;
  sha256: string;
}

/** Writes one entry to its file, hashing exactly the chunks written (with back-pressure, as pipe would). */
function writeEntry(entry: tar.ReadEntry, target: string, outputs: WriteStream[]): Promise<Unpacked> {
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash('sha256');
    let size = 0;
    const out = createWriteStream(target, { flags: 'wx' });
    outputs.push(out);
    out.on('error', reject);
    out.on('drain', () => entry.resume());
    out.on('close', () => (out.writableFinished ? resolve({ size, sha256: hash.digest('hex') }) : reject(new Error('write interrupted'))));
    entry.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
      if (!out.write(chunk)) entry.pause();
    });
    entry.on('end', () => out.end());
  });
}

/**
 * Packs hold markdown and media, which compress far less than this. A gzip of zeros compresses about 1,000:1, and
 * tar's parser spent minutes on its zeros (41 s for a 51 KB upload) before reporting the damage, holding up the
 * server: the decompression is stopped as soon as it runs past the ratio.
 */
const MAX_RATIO = 100;
/** Below this much output the ratio is not judged (a small manifest-only pack may compress well). */
const RATIO_JUDGED_FROM = 16 * 1024 * 1024;

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const isGzip = async (file: string): Promise<boolean> => (await readFileHead(file, 2)).equals(GZIP_MAGIC);

/** The decompressed pack, failing with pack_invalid once it grows past MAX_RATIO times the bytes read. */
function gunzipWithinRatio(input: Readable): Readable[] {
  let read = 0;
  let written = 0;
  input.on('data', (chunk: Buffer) => (read += chunk.length));
  const gunzip = zlib.createGunzip();
  const judged = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      if (written > RATIO_JUDGED_FROM && written > read * MAX_RATIO) return done(packError(`The pack unpacks to more than ${MAX_RATIO} times its size`));
      done(null, chunk);
    },
  });
  input.pipe(gunzip).pipe(judged);
  return [gunzip, judged];
}

/**
 * Streams the entries of the allowed layout into workDir. Not tar.extract: on a damaged pack it rejects while
 * files are still being written (leaking their descriptors and racing the caller's cleanup); here every file is
 * closed before this settles.
 */
async function unpack(packFile: string, workDir: string, maxBytes: number): Promise<Map<string, Promise<Unpacked>>> {
  await fs.mkdir(path.join(workDir, 'sources'), { recursive: true });
  await fs.mkdir(path.join(workDir, 'media'), { recursive: true });
  const files = new Map<string, Promise<Unpacked>>();
  const outputs: WriteStream[] = [];
  let problem: string | undefined;
  let declared = 0;
  const parser = new tar.Parser({ strict: true });
  parser.on('entry', (entry: tar.ReadEntry) => {
    const clean = path.posix.normalize(entry.path);
    const allowed = entry.type === 'File' && (clean === MANIFEST || clean === SIGNATURE || SAFE_PATH.test(clean));
    declared += entry.size ?? 0;
    const refused =
      !allowed ? `Unexpected entry in pack: ${entry.path}`
      : files.has(clean) ? `The pack holds ${clean} twice`
      : declared > maxBytes ? `The pack unpacks to more than ${maxBytes} bytes`
      : clean === MANIFEST && (entry.size ?? 0) > MAX_MANIFEST_BYTES ? 'The manifest is too large'
      : undefined;
    if (refused) {
      problem ??= refused;
      entry.resume();
      return;
    }
    const written = writeEntry(entry, path.join(workDir, ...clean.split('/')), outputs);
    written.catch(() => undefined); // awaited below; a parse error may come first
    files.set(clean, written);
  });
  const input = createReadStream(packFile);
  const streams: Readable[] = [input];
  try {
    if (await isGzip(packFile)) streams.push(...gunzipWithinRatio(input));
    await new Promise<void>((resolve, reject) => {
      parser.on('end', resolve);
      parser.on('error', reject);
      parser.on('abort', reject);
      for (const stream of streams) stream.on('error', reject);
      streams.at(-1)!.pipe(parser as unknown as NodeJS.WritableStream);
    });
    await Promise.all(files.values());
  } catch (err) {
    for (const stream of streams) stream.destroy();
    for (const out of outputs) out.destroy();
    await Promise.allSettled(files.values());
    if (err instanceof AppError) throw err;
    throw packError('The pack file is damaged or truncated');
  }
  if (problem) throw packError(problem);
  return files;
}

/**
 * Extracts a pack into workDir and verifies it completely before anyone uses it: the manifest signature, then the
 * size and sha256 of every listed file, and that nothing else is in the pack. Any failure is a 400 `pack_invalid`.
 */
export async function readPack(packFile: string, workDir: string, { maxBytes = Number.MAX_SAFE_INTEGER }: ReadPackOptions = {}): Promise<PackManifest> {
  const files = await unpack(packFile, workDir, maxBytes);
  let manifestBytes: Buffer;
  let signature: string;
  try {
    manifestBytes = await fs.readFile(path.join(workDir, MANIFEST));
    signature = (await fs.readFile(path.join(workDir, SIGNATURE), 'utf8')).trim();
  } catch {
    throw packError('The pack has no manifest or no signature');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifestBytes.toString('utf8'));
  } catch {
    throw packError('The manifest is not valid JSON');
  }
  const manifest = checkManifest(parsed);
  if (!verifySignature(manifest.public_key, manifestBytes, signature)) throw packError('The pack signature does not match its manifest');
  const listed = new Set([MANIFEST, SIGNATURE, ...manifest.sources.map((s) => s.path), ...manifest.media.map((m) => m.path)]);
  for (const entry of files.keys()) if (!listed.has(entry)) throw packError(`The pack contains a file its manifest does not list: ${entry}`);
  for (const entry of [...manifest.sources, ...manifest.media]) {
    const actual = await files.get(entry.path);
    if (!actual) throw packError(`The pack is missing ${entry.path}`);
    if (actual.size !== entry.size || actual.sha256 !== entry.sha256) throw packError(`Checksum mismatch for ${entry.path}`);
  }
  return manifest;
}
