// The desktop app's update state as the main process reports it to its server (server-host.ts), for
// GET /api/system/update-status. A server nobody reports to is a headless one: updates do not apply to it.
import fs from 'node:fs';
import path from 'node:path';
import type { UpdateStatus } from '../../contract/system.js';
import { projectRoot } from '../config.js';

/** The app's version (package.json), which is what an update replaces; API_VERSION is the contract's. */
export function appVersion(): string {
  try {
    return String(JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')).version);
  } catch {
    return '0.0.0';
  }
}

export function notApplicable(installedVersion: string, reason: string): UpdateStatus {
  return {
    applies: false,
    reason,
    state: 'not-applicable',
    installed_version: installedVersion,
    available_version: null,
    downloaded_version: null,
    progress: null,
    feed_url: null,
    last_checked_at: null,
    next_check_at: null,
    error: null,
  };
}

export const HEADLESS_REASON = 'This server runs without the desktop app (npm run server): it is updated by deploying a new version, not by the desktop updater.';

export class UpdateStatusBoard {
  private status: UpdateStatus = notApplicable(appVersion(), HEADLESS_REASON);

  report(status: UpdateStatus): void {
    this.status = status;
  }

  read(): UpdateStatus {
    return this.status;
  }
}
