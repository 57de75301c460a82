// "Online" for the renderer means "our server answers", not "the machine has a network": the embedded server
// works without one, and a central server can restart while the network is fine. TanStack Query pauses retries
// and mutations while offline and refetches on reconnect; this module tells it when that is.
import { onlineManager } from '@tanstack/react-query';

const PROBE_INTERVAL_MS = 1500;
let probing = false;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function serverAnswers(): Promise<boolean> {
  try {
    return (await fetch('/api/health', { cache: 'no-store' })).ok;
  } catch {
    return false;
  }
}

/** Asks /api/health until it answers, then reports the server back online. */
async function probeUntilBack(): Promise<void> {
  if (probing) return;
  probing = true;
  try {
    while (!(await serverAnswers())) await sleep(PROBE_INTERVAL_MS);
    onlineManager.setOnline(true);
  } finally {
    probing = false;
  }
}

/** A request got no answer at all: the server is down or restarting. */
export function serverUnreachable(): void {
  if (onlineManager.isOnline()) onlineManager.setOnline(false);
  void probeUntilBack();
}

/** Replaces TanStack's navigator.onLine listener; the browser's online event only triggers an early probe. */
export function watchConnection(): void {
  onlineManager.setEventListener(() => {
    const onOnline = () => {
      if (!onlineManager.isOnline()) void probeUntilBack();
    };
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  });
}

/** Resolves once the server answers (at once when it does already). */
export function serverOnline(): Promise<void> {
  return new Promise((resolve) => {
    if (onlineManager.isOnline()) return resolve();
    const unsubscribe = onlineManager.subscribe((online) => {
      if (!online) return;
      unsubscribe();
      resolve();
    });
  });
}
