// collectYoungGarbage runs a scavenge in a server process (started with SERVER_HEAP_FLAGS) and is harmless elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_HEAP_FLAGS } from '../../server/heap-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Counts the scavenges a Node process with `flags` reports while it calls collectYoungGarbage three times. */
function scavengesDuringThreeCalls(flags: readonly string[]): number {
  const script = `
    import { PerformanceObserver, constants } from 'node:perf_hooks';
    const { collectYoungGarbage } = await import(${JSON.stringify(path.join(root, 'server/http/young-gc.ts'))});
    let minor = 0;
    const observer = new PerformanceObserver((list) => {
      minor += list.getEntries().filter((entry) => entry.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR).length;
    });
    observer.observe({ entryTypes: ['gc'] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    minor = 0;
    for (let i = 0; i < 3; i++) collectYoungGarbage();
    await new Promise((resolve) => setTimeout(resolve, 100));
    console.log(minor);`;
  const out = execFileSync(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  return Number(out.trim());
}

test('with the server heap flags, each call runs a scavenge', () => {
  assert.ok(scavengesDuringThreeCalls(SERVER_HEAP_FLAGS) >= 3);
});

test('without --expose-gc, a call does nothing and does not throw', () => {
  assert.equal(scavengesDuringThreeCalls(['--max-semi-space-size=64']), 0);
});
