// A central server reachable over a network: login throttling and the audit log (docs/sync.md, "Security").

export const SecurityErrorCode = {
  /** Too many failed logins for the account or from the address; Retry-After says when to try again. */
  loginLocked: 'auth.login_locked',
} as const;

export interface AuditEntry {
  id: number;
  at: string;
  action: string;
  user_id: number | null;
  username: string | null;
  device_id: number | null;
  address: string | null;
  target: string;
  detail: Record<string, unknown>;
}

export interface LoginLockout {
  /** account:<username>, account:<username>@<address> (admins) or address:<ip>. */
  key: string;
  failures: number;
  locked_until: string;
}
