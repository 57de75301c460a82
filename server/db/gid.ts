import crypto from 'node:crypto';

/**
 * A new global id (docs/sync.md) for a row inserted in bulk. The database would make one for an insert that names
 * none, but on SQLite that is a trigger updating the row just written (migration 014): a second write of the row.
 */
export const newGid = (): string => crypto.randomUUID();
