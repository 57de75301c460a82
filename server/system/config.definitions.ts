import { z } from 'zod';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../clock-format.js';

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
  /** The firm's time zone (IANA name): every date the server prints (PDFs, exports, notifications, reminders). */
  timezone: { schema: z.string().trim().refine(isTimeZone, 'must be an IANA time zone such as Asia/Shanghai'), default: DEFAULT_TIME_ZONE },
  /** After the rule check, a chat model's findings on the rules kept apart in the inspection (when a chat route exists). */
  compliance_second_opinion: { schema: z.boolean(), default: true },
  /** The speaker models sherpa-onnx uses, by file name in the model folders ('' = the first installed of its kind). */
  audio_speaker_segmentation_model: { schema: z.string().trim().max(200), default: '' },
  audio_speaker_embedding_model: { schema: z.string().trim().max(200), default: '' },
  audio_vad_model: { schema: z.string().trim().max(200), default: '' },
  /** speaker_count=0: how far apart (cosine distance) two voices must be to count as two speakers. */
  audio_speaker_threshold: { schema: z.number().min(0.05).max(2), default: 0.5 },
  /** Chinese transcripts in Simplified characters (`simplified`), or as Whisper wrote them (`as_recognized`). */
  audio_chinese_script: { schema: z.enum(['simplified', 'as_recognized']), default: 'simplified' },
  /** Chat routes on this computer (local-llama, or is_local) before remote ones; otherwise priority alone decides. */
  llm_local_first: { schema: z.boolean(), default: false },
  /** Replies a local chat model generates at once; the others wait in line and are told their place. */
  local_llm_concurrency: { schema: positiveInt(8), default: 1 },
  /** A local chat model unused this long is unloaded to give its memory back. */
  local_llm_idle_unload_seconds: { schema: positiveInt(7 * 24 * 3600), default: 300 },
  /** The longest reply of a local chat model, in tokens. */
  local_llm_max_tokens: { schema: positiveInt(32_768), default: 1024 },
  /** Tokens of context per reply (prompt and answer); at most what the model was trained for. */
  local_llm_context_size: { schema: positiveInt(131_072), default: 4096 },
  /** Spaced review: the most cards a person is given to review a day (docs/api/review.md). */
  review_daily_limit: { schema: positiveInt(1000), default: 30 },
  /** Spaced review: the probability of recall FSRS schedules each card's next review at. */
  review_target_retention: {
    schema: z.union([z.number(), z.string().regex(/^\d*\.\d+$/, 'must be a number between 0.7 and 0.99').transform(Number)]).pipe(z.number().min(0.7).max(0.99)),
    default: 0.9,
  },
  /** Assignments: the reminder before the due date goes out this many days before it. */
  assignment_reminder_days: { schema: positiveInt(60), default: 2 },
  /** Central server: the parameters its branch laptops take from it, besides company_intro_content (docs/sync.md). */
  branch_parameters: {
    schema: z.array(z.string().trim()).refine((keys) => keys.every((key) => key in configDefinitions && key !== 'branch_parameters'), 'must name system parameters'),
    default: [],
  },
};

/** The definition of a named parameter; undefined for an unknown name (and for names every object inherits, such as "constructor"). */
export const configDefinition = (key: string): ConfigDefinition | undefined => (Object.hasOwn(configDefinitions, key) ? configDefinitions[key] : undefined);
