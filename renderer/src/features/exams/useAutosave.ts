import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import type { AnswerMap, StartedExam } from '../../api/types';
import { useUser } from '../../app/session';
import { dropDraft, keepDraft } from './drafts';
import { useSaveAnswers } from './mutations';

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'retrying';

/** Sent this long after the last change (and at once when the page is hidden or left). */
const DEBOUNCE_MS = 1500;
/** After a save the server refused with a 5xx, or gave up on: tried again this much later. */
const RETRY_MS = 5000;
/** A submit waits this long at most for a save already on its way (one the server is not answering is left behind). */
const SUBMIT_WAITS_MS = 3000;

const isFinal = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;

export interface AutosaveStart {
  answers: AnswerMap;
  /** Answers on this machine the server may not have (a resumed draft): sent at once. */
  unsaved: boolean;
  /** A resumed session starts "saved". */
  resumed: boolean;
}

/**
 * Keeps a session's answers: on this machine at every change (drafts.ts), on the server shortly after. One save at a
 * time, always the latest answers, so an older save never lands after a newer one; while the server is away the
 * save waits (TanStack pauses it) and the newest answers follow once it is back. A 4xx (session submitted or past
 * its deadline) ends the saving: the submit decides.
 */
export function useAutosave(exam: Pick<StartedExam, 'session_id' | 'paper_id'>, start: AutosaveStart) {
  const user = useUser();
  const save = useSaveAnswers();
  const mutate = useRef(save.mutate);
  mutate.current = save.mutate;
  const latest = useRef(start.answers);
  const version = useRef(start.unsaved ? 1 : 0);
  const savedVersion = useRef(0);
  const inFlight = useRef(false);
  /** Resolves when the save on its way (if any) has its answer. */
  const landed = useRef<Promise<void>>(Promise.resolve());
  const markLanded = useRef(() => {});
  const stopped = useRef(false);
  const held = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  const [status, setStatus] = useState<SaveStatus>(start.unsaved ? 'saving' : start.resumed ? 'saved' : 'idle');

  const flush = useRef(() => {
    window.clearTimeout(timer.current);
    if (stopped.current || held.current || inFlight.current || version.current === savedVersion.current) return;
    inFlight.current = true;
    landed.current = new Promise((resolve) => (markLanded.current = resolve));
    const sending = version.current;
    setStatus('saving');
    mutate.current(
      { sessionId: exam.session_id, answers: latest.current },
      {
        onSuccess: () => {
          savedVersion.current = sending;
        },
        onSettled: (_data, error) => {
          inFlight.current = false;
          markLanded.current();
          if (error && isFinal(error)) stopped.current = true;
          if (stopped.current) return setStatus('idle');
          if (error) {
            setStatus('retrying');
            timer.current = window.setTimeout(flush.current, RETRY_MS);
          } else if (version.current !== savedVersion.current) flush.current();
          else setStatus('saved');
        },
      },
    );
  });

  useEffect(() => {
    const now = () => flush.current();
    const onVisibility = () => document.visibilityState === 'hidden' && now();
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', now);
    now(); // a resumed draft the server lacks
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', now);
      now(); // leaving the page inside the app
    };
  }, []);

  const change = (answers: AnswerMap) => {
    latest.current = answers;
    version.current += 1;
    keepDraft(user.id, { session_id: exam.session_id, paper_id: exam.paper_id, answers, changed_at: Date.now() });
    setStatus('saving');
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(flush.current, DEBOUNCE_MS);
  };

  /**
   * A submit is about to go: no save may follow it, and one already on its way lands first (the server would refuse
   * it once the session is submitted). Resolves when the submit may be sent.
   */
  const hold = (): Promise<void> => {
    held.current = true;
    window.clearTimeout(timer.current);
    return Promise.race([landed.current, new Promise<void>((resolve) => window.setTimeout(resolve, SUBMIT_WAITS_MS))]);
  };
  /** The submit failed: saving goes on. */
  const resume = () => {
    held.current = false;
    flush.current();
  };

  /** The session is submitted: nothing more to save or keep. */
  const finish = () => {
    stopped.current = true;
    window.clearTimeout(timer.current);
    dropDraft(user.id, exam.session_id);
  };

  const waiting = save.isPaused || save.failureCount > 0;
  return { status: waiting && status !== 'idle' ? 'retrying' : status, change, hold, resume, finish };
}
