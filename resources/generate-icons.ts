// Draws the app icon and writes it in every format electron-builder's targets take: icon.png (1024 px),
// icons/NxN.png (Linux), icon.ico (Windows: 16-256 px) and icon.icns (macOS: 16-1024 px). Each size is drawn at
// that size (supersampled), not scaled down from the large one, so the small ones stay crisp.
// Run: `npx tsx resources/generate-icons.ts` (the results are committed; nothing runs this at build time).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

type Rgba = [number, number, number, number];

/** Signed distance to a rounded rectangle centred at (cx, cy) (negative inside). */
function roundedRect(x: number, y: number, cx: number, cy: number, halfW: number, halfH: number, r: number): number {
  const qx = Math.abs(x - cx) - halfW + r;
  const qy = Math.abs(y - cy) - halfH + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

const mix = (a: number, b: number, t: number) => a + (b - a) * t;

/**
 * The icon in unit coordinates (0..1): a blue rounded square (a gradient from top to bottom), a white "T" (the
 * bench's top and leg) and an amber dot beside it, the spark of a trainee's progress.
 */
function shade(x: number, y: number): Rgba {
  if (roundedRect(x, y, 0.5, 0.5, 0.44, 0.44, 0.2) > 0) return [0, 0, 0, 0];
  const top: Rgba = [47, 111, 235, 255];
  const bottom: Rgba = [27, 59, 160, 255];
  let colour: Rgba = [mix(top[0], bottom[0], y), mix(top[1], bottom[1], y), mix(top[2], bottom[2], y), 255];
  const bar = roundedRect(x, y, 0.46, 0.33, 0.24, 0.065, 0.05);
  const leg = roundedRect(x, y, 0.46, 0.55, 0.07, 0.24, 0.05);
  if (Math.min(bar, leg) < 0) colour = [255, 255, 255, 255];
  if (Math.hypot(x - 0.7, y - 0.68) < 0.085) colour = [245, 158, 11, 255];
  return colour;
}

/** size × size RGBA pixels, 4 × 4 samples a pixel. */
function render(size: number): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const [cr, cg, cb, ca] = shade((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      }
      const i = (py * size + px) * 4;
      pixels[i] = a ? Math.round(r / a) : 0;
      pixels[i + 1] = a ? Math.round(g / a) : 0;
      pixels[i + 2] = a ? Math.round(b / a) : 0;
      pixels[i + 3] = Math.round(a / (n * n));
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (data: Buffer) => {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function png(size: number, pixels = render(size)): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method variants, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', zlib.deflateSync(rows, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

/** An ICO image as a classic 32-bit DIB (what every Windows tool, NSIS included, reads), for sizes below 256. */
function dib(size: number): Buffer {
  const pixels = render(size);
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // colour rows + mask rows
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const bgra = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = ((size - 1 - y) * size + x) * 4; // bottom-up
      const to = (y * size + x) * 4;
      bgra[to] = pixels[from + 2]!;
      bgra[to + 1] = pixels[from + 1]!;
      bgra[to + 2] = pixels[from]!;
      bgra[to + 3] = pixels[from + 3]!;
    }
  }
  const maskRow = Math.ceil(size / 32) * 4;
  return Buffer.concat([header, bgra, Buffer.alloc(maskRow * size)]);
}

export function ico(sizes: number[]): Buffer {
  const images = sizes.map((size) => (size >= 256 ? png(size) : dib(size)));
  const dir = Buffer.alloc(6 + 16 * sizes.length);
  dir.writeUInt16LE(1, 2);
  dir.writeUInt16LE(sizes.length, 4);
  let offset = dir.length;
  sizes.forEach((size, i) => {
    const entry = 6 + 16 * i;
    dir[entry] = size >= 256 ? 0 : size;
    dir[entry + 1] = size >= 256 ? 0 : size;
    dir.writeUInt16LE(1, entry + 4);
    dir.writeUInt16LE(32, entry + 6);
    dir.writeUInt32LE(images[i]!.length, entry + 8);
    dir.writeUInt32LE(offset, entry + 12);
    offset += images[i]!.length;
  });
  return Buffer.concat([dir, ...images]);
}

/** ICNS entries holding PNG data, by the type macOS reads for each pixel size. */
export const ICNS_TYPES: [string, number][] = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
];

export function icns(): Buffer {
  const cache = new Map<number, Buffer>();
  const entries = ICNS_TYPES.map(([type, size]) => {
    if (!cache.has(size)) cache.set(size, png(size));
    const data = cache.get(size)!;
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([head, data]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + entries.reduce((sum, e) => sum + e.length, 0), 4);
  return Buffer.concat([head, ...entries]);
}

export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  fs.mkdirSync(path.join(dir, 'icons'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'icon.png'), png(1024));
  for (const size of LINUX_SIZES) fs.writeFileSync(path.join(dir, 'icons', `${size}x${size}.png`), png(size));
  fs.writeFileSync(path.join(dir, 'icon.ico'), ico(ICO_SIZES));
  fs.writeFileSync(path.join(dir, 'icon.icns'), icns());
  console.log('wrote icon.png, icons/*.png, icon.ico, icon.icns');
}
