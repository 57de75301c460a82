/** What the user is told when the embedded server cannot start, so the app can say why instead of just closing. */
export interface StartupErrorMessage {
  title: string;
  detail: string;
}

export function describeStartupError(err: unknown, dataDir: string): StartupErrorMessage {
  const e = (err ?? {}) as { code?: unknown; message?: unknown; port?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' && e.message ? e.message : String(err);
  const title = 'Trainbench could not start';
  if (code === 'EADDRINUSE') {
    return { title, detail: `The port Trainbench was told to use is already taken (${message}). Close the other program or unset PORT to let Trainbench pick a free port.` };
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY') {
    return { title, detail: `Trainbench cannot write to its data folder ${dataDir}. Check that the folder exists and that you may write to it.\n\n${message}` };
  }
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    return { title, detail: `The data folder ${dataDir} (or a folder above it) is a file, not a folder. Move the file away or set DATA_DIR to another folder.` };
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return { title, detail: `The database in ${dataDir} is in use by another program. Close other copies of Trainbench and try again.` };
  }
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return { title, detail: `The database in ${dataDir} is damaged or not a Trainbench database. Restore it from a backup or move it away to start afresh.` };
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '28P01' || code === '3D000') {
    return { title, detail: `The database named by DATABASE_URL cannot be reached or refused the login.\n\n${message}` };
  }
  return { title, detail: message };
}
