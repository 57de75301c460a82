// Writes a GGUF chat model of the real format (llama architecture, byte-level BPE vocabulary, ChatML template)
// with tiny dimensions and seeded random weights: no model can be downloaded here, and this one loads and runs
// through the real node-llama-cpp / llama.cpp path in milliseconds. It understands nothing. Its output is steered
// towards `"`, then `]` and `}` (and away from whitespace and its end-of-turn token): free text runs until the token
// limit, which streaming, abort and queue tests want, while JSON-schema constrained output closes every string and
// array at once, so a grammar-bound reply is short and complete.
import fs from 'node:fs/promises';
import { random } from './tiny-whisper-model.js';

const EMBED = 64;
const HEADS = 4;
const KV_HEADS = 2;
const FEED_FORWARD = 128;
const LAYERS = 2;
const CONTEXT = 2048;
/** Dimension 0 of every token embedding: after the final RMS norm it dominates, so output row 0 ranks the tokens. */
const STEERING = 8;

const GGUF_MAGIC = 0x46554747; // "GGUF"
const ALIGNMENT = 32;

// GGUF metadata value types.
const T = { u32: 4, i32: 5, f32: 6, bool: 7, str: 8, arr: 9 } as const;

/** GPT-2's byte ↔ printable character table (bytes_to_unicode): every byte is a token of one character. */
function byteChars(): string[] {
  const chars: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    chars.push(String.fromCodePoint(printable ? b : 256 + extra++));
  }
  return chars;
}

/** A few merges of common English pairs ("Ġ" is the space byte), each making a token of its own. */
const MERGES: [string, string][] = [
  ['Ġ', 't'], ['h', 'e'], ['i', 'n'], ['e', 'r'], ['a', 'n'], ['o', 'n'], ['r', 'e'], ['Ġ', 'a'], ['Ġt', 'he'], ['e', 'n'],
  ['a', 't'], ['o', 'r'], ['e', 's'], ['Ġ', 's'], ['Ġ', 'w'], ['Ġ', 'c'], ['i', 's'], ['i', 't'], ['o', 'u'], ['Ġ', 'b'],
  ['a', 'l'], ['a', 'r'], ['Ġ', 'p'], ['Ġ', 'f'], ['e', 'd'], ['in', 'g'], ['Ġ', 'o'], ['Ġ', 'm'], ['l', 'e'], ['i', 'on'],
];
const SPECIALS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];
const CHAT_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

function vocabulary() {
  const tokens = byteChars();
  for (const [a, b] of MERGES) tokens.push(a + b);
  const firstSpecial = tokens.length;
  tokens.push(...SPECIALS);
  const types = tokens.map((_, i) => (i >= firstSpecial ? 3 : 1)); // 1 normal, 3 control
  return { tokens, types, endOfText: firstSpecial, endOfTurn: firstSpecial + 2 };
}

const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
};
const u64 = (v: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(v));
  return b;
};
const f32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(v);
  return b;
};
const str = (s: string) => {
  const bytes = Buffer.from(s, 'utf8');
  return Buffer.concat([u64(bytes.length), bytes]);
};

type Meta = [string, 'u32' | 'f32' | 'bool' | 'str', number | string | boolean] | [string, 'strs', string[]] | [string, 'i32s', number[]];

function metadataEntry([key, type, value]: Meta): Buffer {
  const head = str(key);
  switch (type) {
    case 'u32':
      return Buffer.concat([head, u32(T.u32), u32(value as number)]);
    case 'f32':
      return Buffer.concat([head, u32(T.f32), f32(value as number)]);
    case 'bool':
      return Buffer.concat([head, u32(T.bool), Buffer.from([value ? 1 : 0])]);
    case 'str':
      return Buffer.concat([head, u32(T.str), str(value as string)]);
    case 'strs':
      return Buffer.concat([head, u32(T.arr), u32(T.str), u64(value.length), ...value.map(str)]);
    case 'i32s':
      return Buffer.concat([head, u32(T.arr), u32(T.i32), u64(value.length), ...value.map((v) => { const b = Buffer.alloc(4); b.writeInt32LE(v); return b; })]);
  }
}

interface Tensor {
  name: string;
  /** ggml order: ne0 (the contiguous one) first. */
  dims: number[];
  /** The value at flat index i (float32), or no data at all (a header-only file). */
  value?: (i: number) => number;
}

function tensors(vocab: ReturnType<typeof vocabulary>, seed: number): Tensor[] {
  const next = random(seed);
  const noise = () => (next() * 2 - 1) * 0.1;
  const ones = () => 1;
  const steer = new Map<number, number>();
  // A closing quote first (so a string under a grammar ends at once), then the closing brackets.
  for (const [ch, weight] of [['"', 1.5], [']', 1.2], ['}', 1]] as const) steer.set(vocab.tokens.indexOf(ch), weight);
  for (const ch of ['Ġ', 'Ċ', 'ĉ']) steer.set(vocab.tokens.indexOf(ch), -1); // space, newline, tab
  const silent = new Set([vocab.endOfText, vocab.endOfText + 1, vocab.endOfTurn]);
  const n = vocab.tokens.length;
  const list: Tensor[] = [
    { name: 'token_embd.weight', dims: [EMBED, n], value: (i) => (i % EMBED === 0 ? STEERING : noise()) },
    { name: 'output_norm.weight', dims: [EMBED], value: ones },
    {
      name: 'output.weight',
      dims: [EMBED, n],
      value: (i) => {
        const token = Math.floor(i / EMBED);
        if (silent.has(token)) return 0; // logit 0: never above the steered text tokens
        return i % EMBED === 0 ? (steer.get(token) ?? next() * 0.2 - 0.1) : noise();
      },
    },
  ];
  const kv = (EMBED / HEADS) * KV_HEADS;
  for (let l = 0; l < LAYERS; l++) {
    list.push(
      { name: `blk.${l}.attn_norm.weight`, dims: [EMBED], value: ones },
      { name: `blk.${l}.attn_q.weight`, dims: [EMBED, EMBED], value: noise },
      { name: `blk.${l}.attn_k.weight`, dims: [EMBED, kv], value: noise },
      { name: `blk.${l}.attn_v.weight`, dims: [EMBED, kv], value: noise },
      { name: `blk.${l}.attn_output.weight`, dims: [EMBED, EMBED], value: noise },
      { name: `blk.${l}.ffn_norm.weight`, dims: [EMBED], value: ones },
      { name: `blk.${l}.ffn_gate.weight`, dims: [EMBED, FEED_FORWARD], value: noise },
      { name: `blk.${l}.ffn_up.weight`, dims: [EMBED, FEED_FORWARD], value: noise },
      { name: `blk.${l}.ffn_down.weight`, dims: [FEED_FORWARD, EMBED], value: noise },
    );
  }
  return list;
}

function metadata(vocab: ReturnType<typeof vocabulary>, name: string, dims: { embed: number; layers: number; feedForward: number }): Meta[] {
  return [
    ['general.architecture', 'str', 'llama'],
    ['general.name', 'str', name],
    ['general.file_type', 'u32', 0], // all float32
    ['general.alignment', 'u32', ALIGNMENT],
    ['llama.context_length', 'u32', CONTEXT],
    ['llama.embedding_length', 'u32', dims.embed],
    ['llama.block_count', 'u32', dims.layers],
    ['llama.feed_forward_length', 'u32', dims.feedForward],
    ['llama.attention.head_count', 'u32', HEADS],
    ['llama.attention.head_count_kv', 'u32', KV_HEADS],
    ['llama.rope.dimension_count', 'u32', dims.embed / HEADS],
    ['llama.rope.freq_base', 'f32', 10000],
    ['llama.attention.layer_norm_rms_epsilon', 'f32', 1e-5],
    ['llama.vocab_size', 'u32', vocab.tokens.length],
    ['tokenizer.ggml.model', 'str', 'gpt2'],
    ['tokenizer.ggml.pre', 'str', 'default'],
    ['tokenizer.ggml.tokens', 'strs', vocab.tokens],
    ['tokenizer.ggml.token_type', 'i32s', vocab.types],
    ['tokenizer.ggml.merges', 'strs', MERGES.map(([a, b]) => `${a} ${b}`)],
    ['tokenizer.ggml.bos_token_id', 'u32', vocab.endOfText],
    ['tokenizer.ggml.eos_token_id', 'u32', vocab.endOfTurn],
    ['tokenizer.ggml.padding_token_id', 'u32', vocab.endOfText],
    ['tokenizer.ggml.add_bos_token', 'bool', false],
    ['tokenizer.chat_template', 'str', CHAT_TEMPLATE],
  ];
}

const padding = (length: number) => Buffer.alloc((ALIGNMENT - (length % ALIGNMENT)) % ALIGNMENT);

async function writeGguf(file: string, meta: Meta[], list: Tensor[], withData: boolean): Promise<void> {
  const infos: Buffer[] = [];
  let offset = 0;
  for (const t of list) {
    const bytes = t.dims.reduce((a, b) => a * b, 1) * 4;
    infos.push(str(t.name), u32(t.dims.length), ...t.dims.map(u64), u32(0 /* F32 */), u64(offset));
    offset += bytes + ((ALIGNMENT - (bytes % ALIGNMENT)) % ALIGNMENT);
  }
  const header = Buffer.concat([u32(GGUF_MAGIC), u32(3), u64(list.length), u64(meta.length), ...meta.map(metadataEntry), ...infos]);
  const handle = await fs.open(file, 'w');
  try {
    await handle.write(Buffer.concat([header, padding(header.length)]));
    if (!withData) return;
    for (const t of list) {
      const count = t.dims.reduce((a, b) => a * b, 1);
      const data = Buffer.alloc(count * 4);
      for (let i = 0; i < count; i++) data.writeFloatLE(t.value!(i), i * 4);
      await handle.write(Buffer.concat([data, padding(data.length)]));
    }
  } finally {
    await handle.close();
  }
}

/** Writes the model to `file` (about 0.3 MB): 2 layers of width 64, 321 tokens, a 2,048-token context. */
export async function writeTinyLlamaModel(file: string, { seed = 7 }: { seed?: number } = {}): Promise<void> {
  const vocab = vocabulary();
  await writeGguf(file, metadata(vocab, 'tiny-llama-test', { embed: EMBED, layers: LAYERS, feedForward: FEED_FORWARD }), tensors(vocab, seed), true);
}

/**
 * Writes only the header of a model that claims 64 layers of width 8,192 (about 200 GB of float32 weights): its
 * metadata reads like any other, and no laptop has the memory to load it.
 */
export async function writeOversizedLlamaHeader(file: string): Promise<void> {
  const vocab = vocabulary();
  const big = { embed: 8192, layers: 64, feedForward: 28672 };
  const list: Tensor[] = [
    { name: 'token_embd.weight', dims: [big.embed, vocab.tokens.length] },
    { name: 'output_norm.weight', dims: [big.embed] },
    { name: 'output.weight', dims: [big.embed, vocab.tokens.length] },
  ];
  for (let l = 0; l < big.layers; l++) {
    list.push(
      { name: `blk.${l}.attn_norm.weight`, dims: [big.embed] },
      { name: `blk.${l}.attn_q.weight`, dims: [big.embed, big.embed] },
      { name: `blk.${l}.attn_k.weight`, dims: [big.embed, (big.embed / HEADS) * KV_HEADS] },
      { name: `blk.${l}.attn_v.weight`, dims: [big.embed, (big.embed / HEADS) * KV_HEADS] },
      { name: `blk.${l}.attn_output.weight`, dims: [big.embed, big.embed] },
      { name: `blk.${l}.ffn_norm.weight`, dims: [big.embed] },
      { name: `blk.${l}.ffn_gate.weight`, dims: [big.embed, big.feedForward] },
      { name: `blk.${l}.ffn_up.weight`, dims: [big.embed, big.feedForward] },
      { name: `blk.${l}.ffn_down.weight`, dims: [big.feedForward, big.embed] },
    );
  }
  await writeGguf(file, metadata(vocab, 'oversized-llama-test', big), list, false);
}
