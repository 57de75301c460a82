import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import type { AnswerMap, SessionState, SubmitResult } from '../../api/types';
import { useUser } from '../../app/session';
import { ErrorNotice, Loading } from '../../components/states';
import { dropDraft, readDraft, type Draft } from './drafts';
import { examQueries } from './queries';
import { useSubmitExam } from './mutations';
import type { Resumed } from './ExamSession';

/** This machine's draft when it is at least as new as the server's last save, else the server's answers. */
function latestAnswers(state: SessionState, draft: Draft | undefined): { answers: AnswerMap; unsaved: boolean } {
  const serverAt = state.saved_at ? Date.parse(state.saved_at) : 0;
  if (!draft || draft.changed_at < serverAt) return { answers: state.saved_answers, unsaved: false };
  return { answers: draft.answers, unsaved: JSON.stringify(draft.answers) !== JSON.stringify(state.saved_answers) };
}

export interface ResumeHandlers {
  /** Still open: answer on. */
  onTaking(exam: SessionState, resumed: Resumed): void;
  /** Submitted meanwhile, or its time ran out while away (then submitted now, graded as the server rules say). */
  onResult(exam: SessionState, result: SubmitResult): void;
  /** The server does not know it (any more): back to the cover. */
  onGone(): void;
}

/** Opens a session again after a reload, a crash or another visit, and decides where it goes. */
export function ResumeSession({ sessionId, onTaking, onResult, onGone }: { sessionId: string } & ResumeHandlers) {
  const { t } = useTranslation();
  const user = useUser();
  const session = useQuery(examQueries.session(sessionId));
  const submit = useSubmitExam();
  const decided = useRef(false);

  const finish = (state: SessionState, answers: AnswerMap) =>
    submit.mutate(
      { sessionId, answers, timeSpentSec: state.time_limit_min * 60 },
      {
        onSuccess: (result) => {
          dropDraft(user.id, sessionId);
          onResult(state, result);
        },
      },
    );

  useEffect(() => {
    const state = session.data;
    if (decided.current) return;
    if (session.error instanceof ApiError && session.error.status === 404) {
      decided.current = true;
      dropDraft(user.id, sessionId);
      return onGone();
    }
    if (!state) return;
    decided.current = true;
    const { answers, unsaved } = latestAnswers(state, readDraft(user.id, sessionId));
    if (state.submitted_at === null && state.remaining_sec > 0) onTaking(state, { answers, remainingSec: state.remaining_sec, unsaved });
    // The server grades what it should: these answers within the grace, those saved by the deadline after it; a submitted session replays its result.
    else finish(state, answers);
  });

  if (submit.error && session.data) {
    const state = session.data;
    return <ErrorNotice error={submit.error} onRetry={() => finish(state, latestAnswers(state, readDraft(user.id, sessionId)).answers)} />;
  }
  if (session.isError && !(session.error instanceof ApiError && session.error.status === 404)) return <ErrorNotice error={session.error} onRetry={() => void session.refetch()} />;
  return <Loading label={t(submit.isPending ? 'exams.session.finishing' : 'exams.session.resuming')} />;
}
