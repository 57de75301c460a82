import type { MainT } from './i18n.js';

/** What the user is told when the embedded server cannot start, so the app can say why instead of just closing. */
export interface StartupErrorMessage {
  title: string;
  detail: string;
}

export function describeStartupError(t: MainT, err: unknown, dataDir: string): StartupErrorMessage {
  const e = (err ?? {}) as { code?: unknown; message?: unknown; port?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' && e.message ? e.message : String(err);
  const title = t('startup.title');
  if (code === 'EADDRINUSE') {
    return { title, detail: t('startup.portInUse', { message }) };
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY') {
    return { title, detail: t('startup.cannotWrite', { dataDir, message }) };
  }
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    return { title, detail: t('startup.notAFolder', { dataDir }) };
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return { title, detail: t('startup.busy', { dataDir }) };
  }
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return { title, detail: t('startup.corrupt', { dataDir }) };
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '28P01' || code === '3D000') {
    return { title, detail: t('startup.databaseUnreachable', { message }) };
  }
  return { title, detail: message };
}
