import { z } from 'zod';
import type { Context } from 'koa';
import { formField } from '../http/multipart.js';
import { Paging, QueryBool, parseWith } from '../http/validate.js';

/** The text fields of POST /api/audio/transcribe; an empty field counts as omitted. */
const TranscribeFields = z.object({
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/, 'must be a language code such as en, zh or zh-CN')
    .optional(),
  diarize: QueryBool.optional(),
  speakers: QueryBool.optional(),
});

export function transcribeOptions(ctx: Context): { language?: string; speakersRequested: boolean } {
  const field = (name: string) => formField(ctx, name) || undefined;
  const fields = parseWith(TranscribeFields, { language: field('language'), diarize: field('diarize'), speakers: field('speakers') });
  return { language: fields.language, speakersRequested: fields.diarize === true || fields.speakers === true };
}

export const TranscriptionListQuery = Paging;
