// The V8 heap settings of every server process: `npm run server`, the desktop app's server process, the browser
// mode and the benches. Under load, V8's defaults let the old generation grow to a few times its live size before a
// full collection; the server shares a laptop with Electron's renderer, so it may grow by 30 % only. The young
// generation keeps 16 MB halves, set here so that Node and Electron agree: with 8 MB, a batch of exam submits
// outlived two scavenges more often, the scavenger moved three times as many bytes to the old generation (21 against
// 7 MB in `npm run bench exams`), and a submit cost 9-11 % more CPU, for 12-18 MB less RSS (docs/architecture.md,
// "Background work and large files").
// --expose-gc lets a chunk upload free its body buffers with a scavenge (http/young-gc.ts).
export const SERVER_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--heap-growing-percent=30', '--expose-gc'];
