// What an ONNX file says about itself: its metadata (ModelProto.metadata_props) and the names of its graph's inputs
// and outputs, read straight from the protobuf wire format with positioned reads. Big tensors are skipped by their
// length, never loaded, and nothing native runs: a file of random bytes is simply "not an ONNX model" here, where
// sherpa-onnx would end its process on it.
import fs from 'node:fs/promises';

export interface OnnxInfo {
  metadata: Record<string, string>;
  inputs: string[];
  outputs: string[];
}

class NotOnnx extends Error {}

/** Buffered reads of a file at a moving position. */
class Reader {
  private buffer = Buffer.alloc(0);
  private bufferStart = 0;
  constructor(
    private readonly handle: fs.FileHandle,
    public readonly size: number,
    public position = 0,
  ) {}

  private async fill(length: number) {
    if (this.position >= this.bufferStart && this.position + length <= this.bufferStart + this.buffer.length) return;
    const want = Math.max(length, 64 * 1024);
    const buffer = Buffer.alloc(Math.min(want, this.size - this.position));
    const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, this.position);
    if (bytesRead < length) throw new NotOnnx('truncated');
    this.buffer = buffer.subarray(0, bytesRead);
    this.bufferStart = this.position;
  }

  async byte(): Promise<number> {
    await this.fill(1);
    return this.buffer[this.position++ - this.bufferStart]!;
  }

  async bytes(length: number): Promise<Buffer> {
    if (length > 1024 * 1024) throw new NotOnnx('a name longer than 1 MB');
    await this.fill(length);
    const start = this.position - this.bufferStart;
    this.position += length;
    return this.buffer.subarray(start, start + length);
  }

  async varint(): Promise<number> {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      const b = await this.byte();
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
    throw new NotOnnx('bad varint');
  }
}

type Field = { number: number; wire: number; start: number; length: number };

/** Walks the fields of the message in [start, end), calling `visit` for each; length-delimited ones can be read by it. */
async function fields(reader: Reader, start: number, end: number, visit: (field: Field) => Promise<void>): Promise<void> {
  reader.position = start;
  while (reader.position < end) {
    const key = await reader.varint();
    const number = Math.floor(key / 8);
    const wire = key % 8;
    if (number === 0) throw new NotOnnx('field 0');
    let length = 0;
    if (wire === 0) await reader.varint();
    else if (wire === 1) length = 8;
    else if (wire === 5) length = 4;
    else if (wire === 2) length = await reader.varint();
    else throw new NotOnnx(`wire type ${wire}`);
    const fieldStart = reader.position;
    if (fieldStart + length > end) throw new NotOnnx('a field runs past its message');
    if (wire === 2) await visit({ number, wire, start: fieldStart, length });
    reader.position = fieldStart + length;
  }
  if (reader.position !== end) throw new NotOnnx('a message ends inside a field');
}

async function strings(reader: Reader, field: Field, wanted: number[]): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  await fields(reader, field.start, field.start + field.length, async (inner) => {
    if (wanted.includes(inner.number)) found.set(inner.number, (await reader.bytes(inner.length)).toString('utf8'));
  });
  return found;
}

/** The file's metadata and graph input/output names, or undefined when it is not an ONNX model. */
export async function readOnnxInfo(file: string): Promise<OnnxInfo | undefined> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < 8) return undefined;
    const reader = new Reader(handle, size);
    const info: OnnxInfo = { metadata: {}, inputs: [], outputs: [] };
    let hasGraph = false;
    let hasIrVersion = false;
    // ModelProto: 1 ir_version (varint), 7 graph, 14 metadata_props {1 key, 2 value}.
    reader.position = 0;
    const first = await reader.varint();
    hasIrVersion = first === 8; // field 1, varint: every ONNX file starts with its IR version
    await fields(reader, 0, size, async (field) => {
      if (field.number === 14) {
        const entry = await strings(reader, field, [1, 2]);
        if (entry.has(1)) info.metadata[entry.get(1)!] = entry.get(2) ?? '';
      } else if (field.number === 7) {
        hasGraph = true;
        // GraphProto: 11 input, 12 output (ValueInfoProto: 1 name); initializers (5) are skipped by length.
        await fields(reader, field.start, field.start + field.length, async (graphField) => {
          if (graphField.number !== 11 && graphField.number !== 12) return;
          const name = (await strings(reader, graphField, [1])).get(1) ?? '';
          (graphField.number === 11 ? info.inputs : info.outputs).push(name);
        });
      }
    });
    return hasIrVersion && hasGraph ? info : undefined;
  } catch (err) {
    if (err instanceof NotOnnx) return undefined;
    throw err;
  } finally {
    await handle.close();
  }
}
