// At most one local transcription at a time: whisper.cpp uses every core but one, and two at once would each take
// twice as long while making the server sluggish. Waiters are served in the order they came, and can tell their
// place. One slot per server process; the desktop app runs one server per machine (docs/architecture.md). The local
// chat model uses the same kind of line with a capacity an admin sets (local_llm_concurrency).

type Waiter = { key: number; grant: (release: () => void) => void; fail: (reason: unknown) => void };

export class LocalSlot {
  private readonly holders = new Set<number>();
  /** How many keys may hold the slot at once. */
  private capacity = 1;
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

  /** Takes effect as holders leave (a smaller capacity never stops a holder). */
  setCapacity(capacity: number) {
    this.capacity = Math.max(1, capacity);
    this.next();
  }

  /** Keys holding the slot now. */
  get busy(): number {
    return this.holders.size;
  }

  /** Keys waiting for it. */
  get waitingCount(): number {
    return this.waiting.length;
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
    while (this.holders.size < this.capacity && this.waiting.length) {
      const waiter = this.waiting.shift()!;
      this.holders.add(waiter.key);
      let released = false;
      waiter.grant(() => {
        if (released) return;
        released = true;
        this.holders.delete(waiter.key);
        this.next();
      });
    }
    this.changed();
  }
}

/** The slot of this process. */
export const localSlot = new LocalSlot();
