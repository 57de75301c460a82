import type { Locator, Page } from 'playwright-core';

/** The frame around every page once logged in: the sidebar and its unread badge. */
export class Shell {
  constructor(private readonly page: Page) {}

  get nav(): Locator {
    return this.page.getByRole('navigation', { name: 'Main' });
  }

  async open(label: string): Promise<void> {
    await this.nav.getByRole('link', { name: label }).click();
  }

  unreadBadge(): Locator {
    return this.nav.locator('.badge');
  }

  heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
}
