import type { Page } from 'playwright-core';

/** Waits until the page's finite CSS transitions and animations (antd's fades, colour changes) have finished. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
  );
}
