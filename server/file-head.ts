// The first bytes of a file, for telling formats apart by their magic numbers (gzip packs, GGUF and ggml models,
// audio containers).
import fs from 'node:fs/promises';

/** Up to `length` bytes from the start of the file (fewer when the file is shorter). */
export async function readFileHead(file: string, length: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
