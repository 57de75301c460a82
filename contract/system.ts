/** Named system parameters (spec 4.9) and their read-side representation. */
export const ConfigKey = {
  llmBaseUrl: 'llm_base_url',
  llmApiKey: 'llm_api_key',
  llmModel: 'llm_model',
  jwtExpireMinutes: 'jwt_expire_minutes',
  companyIntroContent: 'company_intro_content',
  updateBaseUrl: 'update_base_url',
} as const;

export type SystemConfig = Record<string, string | number | boolean | string[]>;

/**
 * Where the desktop app's self-update stands (GET /api/system/update-status, and the `update:status` event of the
 * desktop bridge). `applies` is false where this server is not the desktop app's (headless `npm run server`, or
 * the desktop app run from source): `reason` says why, and the other fields stay empty.
 */
export type UpdateState =
  | 'not-applicable'
  | 'not-configured'
  | 'idle'
  | 'offline'
  | 'checking'
  | 'up-to-date'
  | 'available'
  | 'downloading'
  | 'downloaded'
  | 'error';

export interface UpdateProgress {
  percent: number;
  transferred: number;
  total: number;
  bytes_per_second: number;
}

export interface UpdateStatus {
  applies: boolean;
  reason: string | null;
  state: UpdateState;
  installed_version: string;
  /** The newest version the update server offers, once a check found one newer than the installed one. */
  available_version: string | null;
  /** Downloaded and verified, installed at the next restart. */
  downloaded_version: string | null;
  progress: UpdateProgress | null;
  /** update_base_url as the last check used it. */
  feed_url: string | null;
  last_checked_at: string | null;
  next_check_at: string | null;
  /** The last failure, for an admin (users are never shown update errors). */
  error: string | null;
}
