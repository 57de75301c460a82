// A log file capped in size: when the next line would pass `maxBytes`, name.log becomes name.1.log (name.1.log
// becomes name.2.log, ...) and the oldest generation is dropped. Lines are appended synchronously: a process that
// is about to die (an uncaught exception, a failed start) still gets its last words onto the disk, which a
// buffered stream cannot promise. Logs are a few lines a minute, so the synchronous write costs nothing.
import fs from 'node:fs';
import path from 'node:path';

export interface RotationOptions {
  /** Size at which the file is rotated. */
  maxBytes: number;
  /** Older files kept besides the current one. */
  generations: number;
}

export const DEFAULT_ROTATION: RotationOptions = { maxBytes: 5 * 1024 * 1024, generations: 3 };

/** name.log → name.N.log */
export const generationPath = (file: string, n: number): string => {
  const ext = path.extname(file);
  return n === 0 ? file : `${file.slice(0, file.length - ext.length)}.${n}${ext}`;
};

export class RotatingFile {
  private size: number;

  constructor(
    readonly file: string,
    private readonly options: RotationOptions = DEFAULT_ROTATION,
  ) {
    // Logs name users and paths: owner-only, like the rest of the data folder.
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    this.size = fs.existsSync(file) ? fs.statSync(file).size : 0;
  }

  append(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.size > 0 && this.size + bytes > this.options.maxBytes) this.rotate();
    fs.appendFileSync(this.file, text, { mode: 0o600 });
    this.size += bytes;
  }

  private rotate(): void {
    const { generations } = this.options;
    fs.rmSync(generationPath(this.file, generations), { force: true });
    for (let n = generations - 1; n >= 0; n--) {
      const from = generationPath(this.file, n);
      if (fs.existsSync(from)) fs.renameSync(from, generationPath(this.file, n + 1));
    }
    if (generations === 0) fs.rmSync(this.file, { force: true });
    this.size = 0;
  }
}
