// Writes a whisper.cpp ggml model file of the real format with tiny dimensions and seeded random weights: no model
// can be downloaded here, and this one loads and runs through the real whisper.cpp code path in a fraction of a
// second. It hears nothing: it always answers one segment from 0 to 1 s holding one made-up word.
import fs from 'node:fs/promises';

const N_VOCAB = 51864; // English-only vocabulary size: whisper.cpp places its special tokens from 50256 on
const WORDS = 50256; // tokens written to the file; the loader adds the special ones
const STATE = 64;
const HEADS = 2;
const LAYERS = 4;
const AUDIO_CTX = 1500;
const TEXT_CTX = 448;
const MELS = 80;
const N_FFT = 201;

/** A small deterministic generator (mulberry32), so the same file comes out every time. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int32s = (...values: number[]) => {
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => buffer.writeInt32LE(v, i * 4));
  return buffer;
};

/** IEEE half precision bits of a small float (no infinities or NaNs are ever written here). */
function toHalf(value: number): number {
  const f32 = new Float32Array([value]);
  const bits = new Uint32Array(f32.buffer)[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  if (exponent <= 0) return sign; // flushed to zero
  return sign | (Math.min(exponent, 30) << 10) | ((bits >>> 13) & 0x3ff);
}

/** `count` values from `value()`, as float32 or (half = true) float16. */
function values(count: number, value: () => number, half = false): Buffer {
  const buffer = Buffer.alloc(count * (half ? 2 : 4));
  for (let i = 0; i < count; i++) {
    if (half) buffer.writeUInt16LE(toHalf(value()), i * 2);
    else buffer.writeFloatLE(value(), i * 4);
  }
  return buffer;
}

/** [name, ggml dims (ne0 first)], in the order and shapes whisper.cpp's loader expects for these hyperparameters. */
function tensorShapes(): [string, number[]][] {
  const shapes: [string, number[]][] = [
    ['encoder.positional_embedding', [STATE, AUDIO_CTX]],
    ['encoder.conv1.weight', [3, MELS, STATE]],
    ['encoder.conv1.bias', [1, STATE]],
    ['encoder.conv2.weight', [3, STATE, STATE]],
    ['encoder.conv2.bias', [1, STATE]],
    ['encoder.ln_post.weight', [STATE]],
    ['encoder.ln_post.bias', [STATE]],
    ['decoder.positional_embedding', [STATE, TEXT_CTX]],
    ['decoder.token_embedding.weight', [STATE, N_VOCAB]],
    ['decoder.ln.weight', [STATE]],
    ['decoder.ln.bias', [STATE]],
  ];
  const block = (prefix: string, attentions: string[]) => {
    shapes.push([`${prefix}.mlp_ln.weight`, [STATE]], [`${prefix}.mlp_ln.bias`, [STATE]]);
    shapes.push([`${prefix}.mlp.0.weight`, [STATE, 4 * STATE]], [`${prefix}.mlp.0.bias`, [4 * STATE]]);
    shapes.push([`${prefix}.mlp.2.weight`, [4 * STATE, STATE]], [`${prefix}.mlp.2.bias`, [STATE]]);
    for (const attn of attentions) {
      shapes.push([`${prefix}.${attn}_ln.weight`, [STATE]], [`${prefix}.${attn}_ln.bias`, [STATE]]);
      shapes.push([`${prefix}.${attn}.query.weight`, [STATE, STATE]], [`${prefix}.${attn}.query.bias`, [STATE]]);
      shapes.push([`${prefix}.${attn}.key.weight`, [STATE, STATE]]);
      shapes.push([`${prefix}.${attn}.value.weight`, [STATE, STATE]], [`${prefix}.${attn}.value.bias`, [STATE]]);
      shapes.push([`${prefix}.${attn}.out.weight`, [STATE, STATE]], [`${prefix}.${attn}.out.bias`, [STATE]]);
    }
  };
  for (let i = 0; i < LAYERS; i++) block(`encoder.blocks.${i}`, ['attn']);
  for (let i = 0; i < LAYERS; i++) block(`decoder.blocks.${i}`, ['attn', 'cross_attn']);
  return shapes;
}

const EOT = 50256;
const TIMESTAMP_BEGIN = 50363; // 0.00 s; each step is 20 ms

/**
 * The decoder is steered by its positional embedding: position p carries a large value in dimension p (4 from
 * there on), which survives the random layers and the final layer norm, and the token it should say next has 1 in
 * that dimension of its embedding row. So it says: 0.00 s, one (random) word, 1.00 s, end of text, and is done in a
 * few steps instead of looping until its context is full.
 */
const steeredTokens = (segmentSeconds: number): [number, number[]][] => [
  [TIMESTAMP_BEGIN, [0]],
  [TIMESTAMP_BEGIN + Math.round(segmentSeconds * 50), [2]],
  [EOT, [3, 4]],
];
const STEERING = 50;

export interface TinyWhisperOptions {
  seed?: number;
  /**
   * Where its one segment ends (1 s by default, at most 30). whisper.cpp moves on by a segment's length, so a
   * 30 s segment takes one encoder pass per 30 s of audio where 1 s takes one per second: what long fixtures want.
   */
  segmentSeconds?: number;
}

/** Writes the model to `file` (about 9 MB). */
export async function writeTinyWhisperModel(file: string, { seed = 42, segmentSeconds = 1 }: TinyWhisperOptions = {}): Promise<void> {
  if (!(segmentSeconds > 0 && segmentSeconds <= 30)) throw new RangeError('segmentSeconds must be in (0, 30]');
  const next = random(seed);
  const parts: Buffer[] = [
    int32s(0x67676d6c), // "ggml"
    // ftype 1: matrices and convolution kernels in float16 (whisper.cpp's convolution takes no float32 kernel).
    int32s(N_VOCAB, AUDIO_CTX, STATE, HEADS, LAYERS, TEXT_CTX, STATE, HEADS, LAYERS, MELS, 1),
    int32s(MELS, N_FFT),
    values(MELS * N_FFT, () => next() * 0.05),
    int32s(WORDS),
  ];
  for (let i = 0; i < WORDS; i++) {
    // Printable ASCII as itself (the decoder looks up " " by text), then made-up words " w<id>".
    const word = Buffer.from(i >= 32 && i < 127 ? String.fromCharCode(i) : i < 256 ? `<${i}>` : ` w${i}`);
    parts.push(int32s(word.length), word);
  }
  for (const [name, dims] of tensorShapes()) {
    const count = dims.reduce((a, b) => a * b, 1);
    const nameBytes = Buffer.from(name);
    // Matrices (2-D weights but the positional embeddings) and kernels are float16, the rest float32.
    const half = /\.weight$/.test(name) && dims.length >= 2;
    // Layer norms at 1 keep activations finite; everything else small noise.
    const noise = () => (next() * 2 - 1) * 0.1;
    let value = /ln(_post)?\.weight$|_ln\.weight$/.test(name) ? () => 1 : noise;
    let index = 0;
    if (name === 'decoder.token_embedding.weight') {
      const rows = new Map(steeredTokens(segmentSeconds));
      value = () => {
        const [row, dim] = [Math.floor(index / STATE), index++ % STATE];
        const steered = rows.get(row);
        return steered ? (steered.includes(dim) ? 1 : 0) : noise();
      };
    }
    if (name === 'decoder.positional_embedding') {
      value = () => {
        const [position, dim] = [Math.floor(index / STATE), index++ % STATE];
        return dim === Math.min(position, 4) ? STEERING : noise();
      };
    }
    parts.push(int32s(dims.length, nameBytes.length, half ? 1 : 0), int32s(...dims), nameBytes, values(count, value, half));
  }
  await fs.writeFile(file, Buffer.concat(parts));
}
