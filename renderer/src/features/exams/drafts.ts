// The answers of open sessions, kept on this machine per user: a reload, a crash of the window or of the server
// between two saves loses nothing. One localStorage entry per user, drafts older than a week are dropped.
import type { AnswerMap } from '../../api/types';

export interface Draft {
  session_id: string;
  paper_id: number | null;
  answers: AnswerMap;
  /** When the trainee last changed an answer (ms since the epoch, this machine's clock). */
  changed_at: number;
}

const MAX_AGE_MS = 7 * 24 * 3600_000;
const storageKey = (userId: number) => `trainbench.exam-drafts.${userId}`;

function readAll(userId: number): Record<string, Draft> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(userId)) ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, Draft>) : {};
  } catch {
    return {};
  }
}

function writeAll(userId: number, drafts: Record<string, Draft>): void {
  const fresh = Object.entries(drafts).filter(([, d]) => Date.now() - d.changed_at < MAX_AGE_MS);
  try {
    if (fresh.length) localStorage.setItem(storageKey(userId), JSON.stringify(Object.fromEntries(fresh)));
    else localStorage.removeItem(storageKey(userId));
  } catch {
    // Storage full or refused: the server copy is still saved.
  }
}

export const keepDraft = (userId: number, draft: Draft) => writeAll(userId, { ...readAll(userId), [draft.session_id]: draft });

export function dropDraft(userId: number, sessionId: string): void {
  const { [sessionId]: _dropped, ...rest } = readAll(userId);
  writeAll(userId, rest);
}

export const readDraft = (userId: number, sessionId: string): Draft | undefined => readAll(userId)[sessionId];

/** The latest draft of a paper's session, if this machine has one. */
export const draftOfPaper = (userId: number, paperId: number): Draft | undefined =>
  Object.values(readAll(userId))
    .filter((d) => d.paper_id === paperId)
    .sort((a, b) => b.changed_at - a.changed_at)[0];
