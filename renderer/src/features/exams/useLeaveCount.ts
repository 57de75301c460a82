import { useEffect, useState } from 'react';

const storageKey = (sessionId: string) => `trainbench.exam-leaves.${sessionId}`;

const stored = (sessionId: string): number => {
  const value = Number(window.localStorage.getItem(storageKey(sessionId)));
  return Number.isInteger(value) && value > 0 ? value : 0;
};

/**
 * How often the candidate left the exam window (another window or tab took focus, or it was hidden): one leave per
 * away spell, however many of blur and visibilitychange it fires. Kept per session on this machine so a reload does
 * not reset it; sent with the submit and shown to admins on the record (it blocks nothing).
 */
export function useLeaveCount(sessionId: string, active: boolean): { count: number; clear(): void } {
  const [count, setCount] = useState(() => stored(sessionId));
  useEffect(() => {
    if (!active) return;
    let away = document.visibilityState === 'hidden';
    const leave = () => {
      if (away) return;
      away = true;
      setCount((n) => {
        window.localStorage.setItem(storageKey(sessionId), String(n + 1));
        return n + 1;
      });
    };
    const back = () => {
      if (document.visibilityState === 'visible') away = false;
    };
    const onVisibility = () => (document.visibilityState === 'hidden' ? leave() : back());
    window.addEventListener('blur', leave);
    window.addEventListener('focus', back);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('blur', leave);
      window.removeEventListener('focus', back);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [sessionId, active]);
  return { count, clear: () => window.localStorage.removeItem(storageKey(sessionId)) };
}
