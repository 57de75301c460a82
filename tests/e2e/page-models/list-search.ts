import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';

/** Types into a list's search box (the `search` landmark named `name`) and sends it; '' clears the search. */
export async function searchList(page: Page, name: string, q: string): Promise<void> {
  const region = page.getByRole('search', { name });
  const box = region.getByRole('searchbox').or(region.getByRole('textbox'));
  await box.fill(q);
  await box.press('Enter');
}

/** A list's previous/next pager. */
export const pager = (page: Page): Locator => page.getByRole('navigation', { name: zh('common.list.pages') });
