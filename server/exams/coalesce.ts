/** Largest number of calls served by one run; bounds statement sizes and the latency of one run. */
const MAX_BATCH = 64;

interface Pending<I, O> {
  item: I;
  resolve(output: O): void;
  reject(error: unknown): void;
}

export interface Coalesced<I, O> {
  call(item: I): Promise<O>;
  /** Resolves once every call made so far has settled (for a clean shutdown). */
  idle(): Promise<void>;
}

/**
 * Group commit for any batched operation. The first call runs at once, alone; calls made while a run is in progress
 * wait and are served together by the next run, so a lone caller never waits and a busy server makes one database
 * round trip for many callers (SQLite has a single connection, and every statement holds it). `run` returns one
 * output per item, in order. When a run of several items fails, each is run again alone, so only the faulty one fails.
 */
export function coalesce<I, O>(run: (items: I[]) => Promise<O[]>): Coalesced<I, O> {
  const queue: Pending<I, O>[] = [];
  let draining: Promise<void> | null = null;

  const settle = async (batch: Pending<I, O>[]): Promise<void> => {
    const outputs = await run(batch.map((p) => p.item));
    batch.forEach((pending, i) => pending.resolve(outputs[i]!));
  };

  const drain = async (): Promise<void> => {
    while (queue.length) {
      const batch = queue.splice(0, MAX_BATCH);
      await settle(batch).catch(async (error) => {
        if (batch.length === 1) return batch[0]!.reject(error);
        for (const pending of batch) await settle([pending]).catch(pending.reject);
      });
    }
  };

  return {
    call: (item) =>
      new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        draining ??= drain().finally(() => (draining = null));
      }),
    idle: async () => {
      while (draining) await draining;
    },
  };
}
