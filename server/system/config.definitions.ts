import { z } from 'zod';

export interface ConfigDefinition {
  schema: z.ZodType<string | number | boolean | string[]>;
  default: string | number | boolean | string[];
  /** Stored as given, returned masked. */
  secret?: boolean;
}

const httpUrl = z
  .string()
  .trim()
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), 'must be an http(s) URL');

/** An http(s) URL without user:password (parameters are shown to every admin in clear), or empty. */
const updateUrl = httpUrl.refine((v) => v === '' || !/^https?:\/\/[^/]*@/i.test(v), 'must not carry a user name or password');

const positiveInt = (max: number) =>
  z.union([z.number(), z.string().regex(/^\d+$/, 'must be a positive integer').transform(Number)]).pipe(
    z.number().int('must be a positive integer').positive('must be a positive integer').max(max),
  );

/** Every named system parameter, its validation and default. Unknown names are rejected on PUT. */
export const configDefinitions: Record<string, ConfigDefinition> = {
  llm_base_url: { schema: httpUrl, default: '' },
  llm_api_key: { schema: z.string(), default: '', secret: true },
  llm_model: { schema: z.string().trim().max(200), default: '' },
  jwt_expire_minutes: { schema: positiveInt(525_600), default: 480 },
  company_intro_content: { schema: z.string().max(1_000_000), default: '' },
  upload_session_ttl_hours: { schema: positiveInt(24 * 365), default: 48 },
  trusted_pack_keys: { schema: z.array(z.string().trim().min(1)), default: [] },
  audio_cloud_fallback: { schema: z.boolean(), default: false },
  audio_local_quality: { schema: z.enum(['accurate', 'fast']), default: 'accurate' },
  /** The folder on the company's update server holding latest.yml and the installers (electron-updater `generic`). */
  update_base_url: { schema: updateUrl, default: '' },
  coaching_admin_listen: { schema: z.boolean(), default: false },
};
