import { z } from 'zod';
import { nameText } from '../http/plain-text.js';
import type { Context } from 'koa';
import { TranscriptExportFormats, TranscriptionJobStates } from '../../contract/audio.js';
import { formField } from '../http/multipart.js';
import { Paging, QueryBool, parseWith } from '../http/validate.js';
import { MODEL_NAME } from './models.js';
import { whisperLanguage } from './whisper-languages.js';

/** `rep,customer`: the labels of the left and right channel. */
const ChannelNames = z
  .string()
  .transform((v) => v.split(',').map((name) => name.trim()))
  .pipe(z.array(z.string().min(1, 'a channel name is empty').max(40, 'a channel name is at most 40 characters')).length(2, 'give two names, left channel first: e.g. rep,customer'))
  .refine((names) => names[0] !== names[1], 'the two channel names must differ');

/** The text fields of POST /api/audio/transcribe (form fields; `async` and `allow_cloud` may be query parameters too). */
const TranscribeFields = z.object({
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/, 'must be a language code such as en, zh or zh-CN')
    .transform((code, ctx) => {
      const language = whisperLanguage(code);
      if (!language) ctx.addIssue({ code: 'custom', message: `${code} is not a language Whisper knows (such as en, zh, ja, yue; a region as in zh-CN is dropped)` });
      return language ?? code;
    })
    .optional(),
  diarize: QueryBool.optional(),
  speakers: QueryBool.optional(),
  channels: ChannelNames.optional(),
  speaker_count: z
    .string()
    .regex(/^\d$/, 'must be a whole number from 0 to 8 (0: find out how many)')
    .transform(Number)
    .pipe(z.number().int().min(0).max(8, 'must be a whole number from 0 to 8 (0: find out how many)'))
    .optional(),
  allow_cloud: QueryBool.optional(),
  async: QueryBool.optional(),
});

export interface TranscribeOptions {
  language?: string;
  speakersRequested: boolean;
  channelNames?: string[];
  /** Speakers of a mono call when found by voice: 1–8, 0 to find out; undefined: the default (2). */
  speakerCount?: number;
  allowCloud: boolean;
  async: boolean;
}

/** An empty field counts as omitted; naming the channels or the number of speakers asks for speakers. */
export function transcribeOptions(ctx: Context): TranscribeOptions {
  const field = (name: string) => formField(ctx, name) || undefined;
  const query = (name: string) => (typeof ctx.query[name] === 'string' && ctx.query[name] !== '' ? (ctx.query[name] as string) : undefined);
  const fields = parseWith(TranscribeFields, {
    language: field('language'),
    diarize: field('diarize'),
    speakers: field('speakers'),
    channels: field('channels'),
    speaker_count: field('speaker_count'),
    allow_cloud: field('allow_cloud') ?? query('allow_cloud'),
    async: field('async') ?? query('async'),
  });
  const preferAsync = /(^|[,;\s])respond-async($|[,;\s])/i.test(ctx.get('prefer'));
  return {
    language: fields.language,
    speakersRequested: fields.diarize === true || fields.speakers === true || fields.channels !== undefined || fields.speaker_count !== undefined,
    channelNames: fields.channels,
    speakerCount: fields.speaker_count,
    allowCloud: fields.allow_cloud !== false,
    async: fields.async ?? preferAsync,
  };
}

export const TranscriptionListQuery = Paging;

export const JobListQuery = Paging.extend({ state: z.enum(TranscriptionJobStates).optional() });

export const ModelName = z.string().regex(MODEL_NAME, 'must be a model file name such as ggml-base.bin or speaker-embedding.onnx');

/** POST …/models of a model shelf: the file name as the shelf names its models. */
export const modelUploadInit = (name: z.ZodType<string>) =>
    z
    .object({
      filename: name,
      file_size: z.number().int().positive().max(8 * 1024 * 1024 * 1024),
      /** When given, the completed file must have this sha256. */
      sha256: z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal digits')
        .transform((v) => v.toLowerCase())
        .optional(),
    })
    .strict();

const SpeakerLabel = nameText(40).min(1, 'a speaker label is empty').max(40, 'a speaker label is at most 40 characters');

/** PUT /api/audio/transcriptions/{id}/segments. */
export const RevisionInput = z
  .object({
    base_revision: z.number().int().min(1),
    segments: z
      .array(
        z
          .object({
            start: z.number().min(0).max(24 * 3600),
            end: z.number().min(0).max(24 * 3600),
            text: z.string().max(10_000),
            speaker: SpeakerLabel.optional(),
          })
          .strict()
          .refine((s) => s.end >= s.start, 'a segment ends before it starts'),
      )
      .max(20_000),
    speaker_names: z.record(SpeakerLabel, nameText(60).max(60, 'a speaker name is at most 60 characters')).optional(),
  })
  .strict();
export type RevisionInput = z.output<typeof RevisionInput>;

/** GET /api/audio/transcriptions/{id}?revision=N */
export const RevisionQuery = z.object({ revision: z.coerce.number().int().min(1).optional() });

/** GET /api/audio/transcriptions/{id}/export */
export const ExportQuery = RevisionQuery.extend({
  format: z.enum(TranscriptExportFormats),
  lang: z.enum(['zh-CN', 'en']).optional(),
});
