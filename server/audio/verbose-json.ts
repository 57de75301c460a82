// The `verbose_json` answer of an OpenAI-compatible /audio/transcriptions endpoint.
import type { TranscriptSegment } from '../../contract/audio.js';
import { UpstreamError } from '../ai/openai-stream.js';
import type { RawTranscript } from './transcriber.js';

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);

const seconds = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

/** Servers that separate speakers label segments with `speaker` (a name or a number). */
function speakerOf(segment: Loose): string | undefined {
  const label = segment.speaker;
  if (typeof label === 'number' && Number.isFinite(label)) return String(label);
  return typeof label === 'string' && label.trim() !== '' ? label.trim() : undefined;
}

function toSegment(raw: unknown): TranscriptSegment[] {
  if (!isObject(raw) || typeof raw.text !== 'string') return [];
  const speaker = speakerOf(raw);
  return [{ start: seconds(raw.start), end: seconds(raw.end), text: raw.text.trim(), ...(speaker !== undefined && { speaker }) }];
}

export function parseVerboseJson(body: unknown): RawTranscript {
  if (!isObject(body) || typeof body.text !== 'string') throw new UpstreamError('the answer is not a transcription (no text field)');
  return {
    text: body.text.trim(),
    language: typeof body.language === 'string' ? body.language : '',
    segments: Array.isArray(body.segments) ? body.segments.flatMap(toSegment) : [],
  };
}
