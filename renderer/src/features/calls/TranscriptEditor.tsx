// The transcript editor (loaded only when opened): rename speakers, give a line to another speaker, correct its
// words, merge and split lines, play the call from a line. Saving sends the whole transcript as a new revision made
// from the one loaded (PUT /api/audio/transcriptions/{id}/segments); a 409 says someone saved in between.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import type { Transcription, TranscriptSegment } from '../../api/types';
import { ApiError } from '../../api/client';
import { fetchFile } from '../../api/download';
import { ErrorNotice } from '../../components/states';
import { formatClock } from '../../i18n/format';
import { useSaveRevision } from './mutations';
import { speakerName, speakersOf } from './speakers';

interface Draft {
  segments: TranscriptSegment[];
  names: Record<string, string>;
}

const draftOf = (t: Transcription): Draft => ({ segments: t.segments.map((s) => ({ ...s })), names: { ...t.speaker_names } });

/** A label no segment uses yet: C, D, … */
function freeLabel(used: string[]): string {
  for (let i = 0; i < 26; i++) {
    const label = String.fromCharCode(65 + i);
    if (!used.includes(label)) return label;
  }
  return `S${used.length + 1}`;
}

export default function TranscriptEditor({ transcription, onSaved }: { transcription: Transcription; onSaved(t: Transcription): void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(transcription));
  const [dirty, setDirty] = useState(false);
  const [savedRevision, setSavedRevision] = useState<number | null>(null);
  const save = useSaveRevision(transcription.id);
  const areas = useRef<(TextAreaRef | null)[]>([]);
  const audio = useRef<HTMLAudioElement>(null);
  const [audioUrl, setAudioUrl] = useState<string | null>(null);
  const [audioError, setAudioError] = useState(false);

  useEffect(() => {
    setDraft(draftOf(transcription));
    setDirty(false);
  }, [transcription]);
  useEffect(() => () => void (audioUrl && URL.revokeObjectURL(audioUrl)), [audioUrl]);

  const labels = speakersOf(draft.segments);
  const nameOf = (label: string) => draft.names[label]?.trim() || speakerName(t, label);
  const change = (next: Draft) => {
    setDraft(next);
    setDirty(true);
    setSavedRevision(null);
  };
  const setSegment = (i: number, patch: Partial<TranscriptSegment>) => change({ ...draft, segments: draft.segments.map((s, j) => (j === i ? { ...s, ...patch } : s)) });

  const merge = (i: number) => {
    const [a, b] = [draft.segments[i]!, draft.segments[i + 1]!];
    const joined = /[\u3400-\u9fff]$/.test(a.text) ? `${a.text}${b.text}` : `${a.text} ${b.text}`.trim();
    change({ ...draft, segments: [...draft.segments.slice(0, i), { ...a, end: Math.max(a.end, b.end), text: joined }, ...draft.segments.slice(i + 2)] });
  };
  const split = (i: number) => {
    const s = draft.segments[i]!;
    const caret = areas.current[i]?.resizableTextArea?.textArea.selectionStart ?? Math.floor(s.text.length / 2);
    const at = caret > 0 && caret < s.text.length ? caret : Math.floor(s.text.length / 2);
    // The time is shared in proportion to the text on each side.
    const middle = Math.round((s.start + ((s.end - s.start) * at) / Math.max(1, s.text.length)) * 1000) / 1000;
    const first = { ...s, end: middle, text: s.text.slice(0, at).trim() };
    const second = { ...s, start: middle, text: s.text.slice(at).trim() };
    change({ ...draft, segments: [...draft.segments.slice(0, i), first, second, ...draft.segments.slice(i + 1)] });
  };
  const remove = (i: number) => change({ ...draft, segments: draft.segments.filter((_, j) => j !== i) });

  const play = async (from: number) => {
    let url = audioUrl;
    if (!url) {
      try {
        url = URL.createObjectURL(await (await fetchFile(`/audio/transcriptions/${transcription.id}/recording`)).blob());
        setAudioUrl(url);
      } catch {
        setAudioError(true);
        return;
      }
    }
    const player = audio.current;
    if (!player) return;
    if (player.src !== url) player.src = url;
    player.currentTime = from;
    void player.play().catch(() => undefined);
  };

  const submit = () =>
    save.mutate(
      { base_revision: transcription.latest_revision, segments: draft.segments, speaker_names: draft.names },
      {
        onSuccess: (saved) => {
          setDirty(false);
          setSavedRevision(saved.revision);
          onSaved(saved);
        },
      },
    );
  const conflict = save.error instanceof ApiError && save.error.code === 'audio.revision_conflict';

  return (
    <Card
      title={<h2 className="card-heading">{t('transcript.editor.title')}</h2>}
      extra={
        <Space>
          <Tag>{t('transcript.editor.revision', { revision: transcription.revision })}</Tag>
          {dirty && <Tag color="orange">{t('transcript.editor.unsaved')}</Tag>}
        </Space>
      }
      className="section transcript-editor"
    >
      <Typography.Paragraph type="secondary">{t('transcript.editor.hint')}</Typography.Paragraph>
      {transcription.has_speakers && !labels.includes('rep') && !transcription.rep_match && <Alert className="section" type="info" showIcon title={t('transcript.editor.pickRep')} />}
      {transcription.has_recording ? <audio ref={audio} controls preload="none" className="media-audio" aria-label={t('transcript.editor.loadAudio')} /> : <Alert type="info" showIcon title={t('transcript.editor.noAudio')} />}
      {audioError && <Alert type="warning" showIcon title={t('transcript.editor.noAudio')} />}

      {labels.length > 0 && (
        <section aria-label={t('transcript.editor.speakers')} className="section">
          <h3>{t('transcript.editor.speakers')}</h3>
          <Space wrap>
            {labels.map((label) => (
              <Input
                key={label}
                addonBefore={label}
                aria-label={t('transcript.editor.speakerName', { label })}
                placeholder={speakerName(t, label)}
                value={draft.names[label] ?? ''}
                maxLength={60}
                onChange={(e) => change({ ...draft, names: { ...draft.names, [label]: e.target.value } })}
                style={{ width: 220 }}
              />
            ))}
          </Space>
        </section>
      )}

      <table className="transcript-table" style={{ width: '100%' }} aria-label={t('transcript.editor.title')}>
        <thead>
          <tr>
            <th>{t('transcript.editor.time')}</th>
            <th>{t('transcript.editor.speaker')}</th>
            <th>{t('transcript.editor.text')}</th>
            <th>{t('transcript.editor.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {draft.segments.map((segment, i) => (
            <tr key={i}>
              <td>
                <Tooltip title={t('transcript.editor.play', { time: formatClock(segment.start) })}>
                  <Button size="small" type="link" disabled={!transcription.has_recording} onClick={() => void play(segment.start)} aria-label={t('transcript.editor.play', { time: formatClock(segment.start) })}>
                    {formatClock(segment.start)}
                  </Button>
                </Tooltip>
              </td>
              <td>
                <Select
                  size="small"
                  aria-label={t('transcript.editor.speaker')}
                  value={segment.speaker ?? ''}
                  style={{ width: 130 }}
                  onChange={(value: string) => setSegment(i, { speaker: value === '__new' ? freeLabel(labels) : value || undefined })}
                  options={[
                    ...labels.map((label) => ({ value: label, label: nameOf(label) })),
                    { value: '__new', label: t('transcript.editor.newSpeaker') },
                    ...(segment.speaker ? [] : [{ value: '', label: t('transcript.editor.noSpeaker') }]),
                  ]}
                />
              </td>
              <td style={{ width: '100%' }}>
                <Input.TextArea
                  ref={(el) => {
                    areas.current[i] = el;
                  }}
                  aria-label={`${t('transcript.editor.text')} ${formatClock(segment.start)}`}
                  autoSize={{ minRows: 1, maxRows: 6 }}
                  value={segment.text}
                  onChange={(e) => setSegment(i, { text: e.target.value })}
                />
              </td>
              <td>
                <Space size={4}>
                  <Button size="small" onClick={() => split(i)} disabled={segment.text.length < 2}>
                    {t('transcript.editor.split')}
                  </Button>
                  <Button size="small" onClick={() => merge(i)} disabled={i === draft.segments.length - 1}>
                    {t('transcript.editor.merge')}
                  </Button>
                  <Button size="small" danger onClick={() => remove(i)}>
                    {t('transcript.editor.remove')}
                  </Button>
                </Space>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      {conflict ? (
        <Alert className="section" type="warning" showIcon title={t('transcript.editor.conflict')} />
      ) : (
        save.error && <ErrorNotice error={save.error} />
      )}
      {savedRevision !== null && <Alert className="section" type="success" showIcon title={t('transcript.editor.saved', { revision: savedRevision })} />}
      <Space className="section">
        <Button type="primary" onClick={submit} loading={save.isPending} disabled={!dirty}>
          {t('transcript.editor.save')}
        </Button>
        <Button
          onClick={() => {
            setDraft(draftOf(transcription));
            setDirty(false);
          }}
          disabled={!dirty}
        >
          {t('transcript.editor.reset')}
        </Button>
      </Space>
    </Card>
  );
}
