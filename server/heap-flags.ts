// The V8 heap settings of every server process: `npm run server`, the desktop app's server process, the browser
// mode and the benches. Under load, V8's defaults let the heap run well ahead of what is live: a young generation
// of two 16 MB halves, and an old generation allowed to grow to a few times its live size before a full collection.
// The server shares a laptop with Electron's renderer, so its memory counts more than the last percent of
// throughput: with these, RSS after `npm run bench memory`'s rounds went from 141-170 MB to 120-132 MB for about
// 10 % more CPU per exam submit (docs/architecture.md, "Background work and large files").
export const SERVER_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--heap-growing-percent=30'];
