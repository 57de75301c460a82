import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Tooltip } from 'antd';
import { AudioOutlined } from '@ant-design/icons';

const canRecord = () => typeof window !== 'undefined' && 'MediaRecorder' in window && !!navigator.mediaDevices?.getUserMedia;

/**
 * Hold to talk: records from the microphone while the button is held (mouse, touch or the space key) and hands
 * the recording over on release. Hidden where the browser cannot record.
 */
export function HoldToTalk({ disabled, onRecorded }: { disabled?: boolean; onRecorded(recording: Blob): void }) {
  const { t } = useTranslation();
  const [recording, setRecording] = useState(false);
  const [denied, setDenied] = useState(false);
  const recorder = useRef<MediaRecorder | null>(null);
  const held = useRef(false);
  if (!canRecord()) return null;

  const start = async () => {
    if (disabled || recorder.current) return;
    held.current = true;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setDenied(true);
      return;
    }
    setDenied(false);
    const chunks: Blob[] = [];
    const r = new MediaRecorder(stream);
    r.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    r.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      recorder.current = null;
      setRecording(false);
      const blob = new Blob(chunks, { type: r.mimeType || 'audio/webm' });
      if (blob.size) onRecorded(blob);
    };
    recorder.current = r;
    r.start();
    setRecording(true);
    // Released while the microphone was being opened.
    if (!held.current) r.stop();
  };
  const stop = () => {
    held.current = false;
    if (recorder.current?.state === 'recording') recorder.current.stop();
  };
  const label = recording ? t('roleplay.releaseToSend') : t('roleplay.holdToTalk');
  return (
    <Tooltip title={denied ? t('roleplay.micDenied') : undefined} open={denied || undefined}>
      <Button
        icon={<AudioOutlined aria-hidden />}
        type={recording ? 'primary' : 'default'}
        danger={recording}
        disabled={disabled}
        aria-label={label}
        aria-pressed={recording}
        onPointerDown={(e) => (e.preventDefault(), void start())}
        onPointerUp={stop}
        onPointerLeave={stop}
        onKeyDown={(e) => e.key === ' ' && !e.repeat && (e.preventDefault(), void start())}
        onKeyUp={(e) => e.key === ' ' && stop()}
      >
        {label}
      </Button>
    </Tooltip>
  );
}
