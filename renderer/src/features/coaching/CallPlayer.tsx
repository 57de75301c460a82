import { createContext, useContext, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { Alert } from 'antd';
import type { CoachingRecording } from '../../api/types';

/** Plays the call from a segment's signed `audio_url` (its `#t=start,end` fragment starts it there). */
type Play = (audioUrl: string) => void;
const PlayerContext = createContext<Play | null>(null);

/** The quote's play button, or null when the reader may not listen (no player on the page). */
export const usePlayer = () => useContext(PlayerContext);

const reasonLabel: Record<NonNullable<CoachingRecording['reason']> | 'elsewhere', ParseKeys> = {
  not_kept: 'coaching.player.notKept',
  admin_listen_off: 'coaching.player.adminListenOff',
  elsewhere: 'coaching.player.elsewhere',
};

/**
 * One audio element for the whole report: every quote's play button loads its own link into it. Shown only when
 * the server allows this reader to listen (the rep's own call, or an admin while coaching_admin_listen is on).
 */
export function CallPlayer({ recording, children }: { recording: Omit<CoachingRecording, 'reason'> & { reason: CoachingRecording['reason'] | 'elsewhere' }; children: ReactNode }) {
  const { t } = useTranslation();
  const audio = useRef<HTMLAudioElement>(null);
  const play: Play = (url) => {
    const element = audio.current;
    if (!element) return;
    element.src = url;
    void element.play().catch(() => undefined); // a refused autoplay leaves the player ready for its own button
  };
  return (
    <>
      {recording.available && recording.url ? (
        <div className="section call-player">
          <audio ref={audio} controls preload="metadata" src={recording.url} aria-label={t('coaching.player.label')} className="media-audio" />
        </div>
      ) : (
        <Alert className="section" type="info" showIcon title={t(reasonLabel[recording.reason ?? 'not_kept'])} />
      )}
      <PlayerContext.Provider value={recording.available ? play : null}>{children}</PlayerContext.Provider>
    </>
  );
}
