// A transcript as a file to hand on: plain text, SRT or WebVTT subtitles, or a Word document (the docx package), each
// with every segment's speaker (the name given in the editor, else the label in the reader's language) and times.
import path from 'node:path';
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import type { Transcription, TranscriptExportFormat } from '../../contract/audio.js';
import { oneLine } from '../http/plain-text.js';

export type ExportLanguage = 'zh-CN' | 'en';

const LABELS: Record<ExportLanguage, { rep: string; customer: string; speaker: string; title: string; file: string; duration: string; revision: string }> = {
  'zh-CN': { rep: '销售', customer: '客户', speaker: '说话人', title: '通话转写', file: '文件', duration: '时长', revision: '版本' },
  en: { rep: 'Rep', customer: 'Customer', speaker: 'Speaker', title: 'Call transcript', file: 'File', duration: 'Duration', revision: 'Revision' },
};

/** The name shown for a speaker label: the editor's name for it, else rep / customer / customer_2 / A… in words. */
export function speakerDisplayName(label: string, names: Record<string, string>, language: ExportLanguage): string {
  const named = names[label]?.trim();
  if (named) return named;
  const words = LABELS[language];
  if (label === 'rep') return words.rep;
  if (label === 'customer') return words.customer;
  const customer = /^customer_(\d+)$/.exec(label);
  if (customer) return `${words.customer} ${customer[1]}`;
  if (/^[A-Z]$/.test(label)) return language === 'en' ? `${words.speaker} ${label}` : `${words.speaker} ${label}`;
  return label;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** 01:02:03,456 (SRT) or 01:02:03.456 (VTT). */
export function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** 1:02:03 or 02:03 for reading. */
const clock = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  return h ? `${h}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
};

interface Line {
  start: number;
  end: number;
  who: string | null;
  text: string;
}

const linesOf = (t: Transcription, language: ExportLanguage): Line[] =>
  t.segments.filter((s) => s.text.trim()).map((s) => ({ start: s.start, end: Math.max(s.end, s.start + 0.001), who: s.speaker === undefined ? null : speakerDisplayName(s.speaker, t.speaker_names, language), text: s.text.trim() }));

function toTxt(t: Transcription, language: ExportLanguage): string {
  const words = LABELS[language];
  const head = [`${words.title}: ${t.filename}`, `${words.revision} ${t.revision}`, ''];
  return [...head, ...linesOf(t, language).map((l) => `[${clock(l.start)} - ${clock(l.end)}] ${l.who ? `${l.who}: ` : ''}${l.text}`), ''].join('\n');
}

/**
 * A cue's text on one line, with no `-->`: a blank line ends a cue and a line holding `-->` starts one, so a segment
 * or a speaker name carrying either could add cues of its own to a subtitle file.
 */
export const cueText = (text: string): string => oneLine(text).replace(/-{2,}>/g, '->').replace(/ {2,}/g, ' ').trim();

/** SubRip: numbered cues, `00:00:01,000 --> 00:00:04,200`, the speaker before the text. */
function toSrt(t: Transcription, language: ExportLanguage): string {
  return linesOf(t, language)
    .map((l, i) => `${i + 1}\n${timestamp(l.start, ',')} --> ${timestamp(l.end, ',')}\n${l.who ? `${cueText(l.who)}: ` : ''}${cueText(l.text)}\n`)
    .join('\n');
}

/** WebVTT: the speaker as a voice span (`<v 销售>`), which players show as the speaker's name. */
function toVtt(t: Transcription, language: ExportLanguage): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const cues = linesOf(t, language).map((l) => `${timestamp(l.start, '.')} --> ${timestamp(l.end, '.')}\n${l.who ? `<v ${escape(cueText(l.who))}>` : ''}${escape(cueText(l.text))}\n`);
  return ['WEBVTT', '', ...cues].join('\n');
}

async function toDocx(t: Transcription, language: ExportLanguage): Promise<Buffer> {
  const words = LABELS[language];
  const lines = linesOf(t, language);
  const doc = new Document({
    creator: 'Trainbench',
    title: `${words.title}: ${t.filename}`,
    sections: [
      {
        children: [
          new Paragraph({ text: `${words.title}: ${t.filename}`, heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [new TextRun({ text: `${words.revision} ${t.revision}${t.audio ? ` · ${words.duration} ${clock(t.audio.duration)}` : ''}`, color: '666666' })],
            alignment: AlignmentType.LEFT,
          }),
          ...lines.map(
            (l) =>
              new Paragraph({
                spacing: { before: 120 },
                children: [new TextRun({ text: `[${clock(l.start)}] `, color: '888888' }), ...(l.who ? [new TextRun({ text: `${l.who}: `, bold: true })] : []), new TextRun({ text: l.text })],
              }),
          ),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

export const EXPORT_TYPES: Record<TranscriptExportFormat, string> = {
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** The file's body and name: the recording's name with the format's extension (any language). */
export async function exportTranscript(t: Transcription, format: TranscriptExportFormat, language: ExportLanguage): Promise<{ body: string | Buffer; filename: string }> {
  const stem = path.basename(t.filename, path.extname(t.filename)) || 'transcript';
  const filename = `${stem}.${format}`;
  if (format === 'docx') return { body: await toDocx(t, language), filename };
  const text = format === 'txt' ? toTxt(t, language) : format === 'srt' ? toSrt(t, language) : toVtt(t, language);
  // A BOM for plain text, so that Notepad on Windows reads the Chinese as UTF-8.
  return { body: format === 'txt' ? `\ufeff${text}` : text, filename };
}
