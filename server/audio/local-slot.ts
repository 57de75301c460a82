// At most one local transcription at a time: whisper.cpp uses every core but one, and two at once would each take
// twice as long while making the server sluggish. Waiters are served in the order they came, and can tell their
// place. One slot per server process; the desktop app runs one server per machine (docs/architecture.md).

type Waiter = { key: number; grant: (release: () => void) => void; fail: (reason: unknown) => void };

export class LocalSlot {
  private holder: number | undefined;
  private readonly waiting: Waiter[] = [];
  private readonly listeners = new Set<() => void>();

  /** Told whenever the queue moves (a waiter's place changed). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed() {
    for (const listener of this.listeners) listener();
  }

  /** 1 for the next to run; undefined when `key` is not waiting. */
  position(key: number): number | undefined {
    const index = this.waiting.findIndex((w) => w.key === key);
    return index < 0 ? undefined : index + 1;
  }

  /** Resolves with the release function once the slot is this key's; rejects when the signal aborts first. */
  acquire(key: number, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        key,
        grant: (release) => {
          signal.removeEventListener('abort', onAbort);
          resolve(release);
        },
        fail: reject,
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        this.changed();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.next();
    });
  }

  private next() {
    if (this.holder === undefined) {
      const waiter = this.waiting.shift();
      if (waiter) {
        this.holder = waiter.key;
        let released = false;
        waiter.grant(() => {
          if (released) return;
          released = true;
          this.holder = undefined;
          this.next();
        });
      }
    }
    this.changed();
  }
}

/** The slot of this process. */
export const localSlot = new LocalSlot();
