// A request body reaches JavaScript as one new buffer per 64 KB read, and V8 counts those bytes against the old
// generation's limit until a collection frees them. With the old generation's growth held at 30 % (heap-flags.ts),
// a large upload then ran a full collection every ~20 MB although nothing stayed live: about 2 s of V8's helper
// threads and 0.5-1 s of the main thread per GiB (docs/architecture.md, "Memory"). A scavenge once a chunk's body
// is read frees its buffers first, for 0.5-3.5 ms of the main thread per 5 MB chunk. `gc` exists when the process
// runs with --expose-gc (SERVER_HEAP_FLAGS); without it this does nothing.
type Collect = (options: { type: 'minor' }) => void;

const collect = (globalThis as { gc?: Collect }).gc;

/** Frees the young generation now: for when a request has just turned megabytes of body into garbage. */
export function collectYoungGarbage(): void {
  collect?.({ type: 'minor' });
}
