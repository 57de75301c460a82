// The folder Electron's app.getPath('userData') names for this app, computed without Electron, so that the
// browser fallback of `npm start` uses the data the desktop app uses: <appData>/<productName>.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function appDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'win32') return env.APPDATA || path.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME || path.join(home, '.config');
}

/** Electron names the folder after package.json's productName, or its name. */
export function appName(root: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { productName?: string; name: string };
  return pkg.productName || pkg.name;
}

export function electronUserDataDir(root: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return path.join(appDataDir(platform, env, home), appName(root));
}
