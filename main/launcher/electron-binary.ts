// Whether this machine can open the desktop window: the Electron binary (the `electron` package downloads it at
// install, which CI, ELECTRON_SKIP_BINARY_DOWNLOAD and locked-down company laptops prevent) and a display.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

export type ElectronLookup = { binary: string } | { missing: string };

export function findElectron(root: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): ElectronLookup {
  let binary: string;
  try {
    // The package exports the binary's path, and throws when its download never happened.
    binary = createRequire(path.join(root, 'package.json'))('electron') as string;
  } catch {
    return { missing: 'the Electron binary was not downloaded at install' };
  }
  if (typeof binary !== 'string' || !fs.existsSync(binary)) return { missing: `there is no Electron binary at ${binary}` };
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return { missing: 'there is no display to open a window on' };
  return { binary };
}
