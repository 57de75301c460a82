import assert from 'node:assert/strict';

/** Polls `condition` every 10 ms until it holds; fails the test naming `what` after about 10 s. */
export async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}
