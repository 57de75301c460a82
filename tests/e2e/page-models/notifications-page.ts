import type { Locator, Page } from 'playwright-core';

export class NotificationsPage {
  constructor(private readonly page: Page) {}

  item(title: string): Locator {
    return this.page.getByRole('list', { name: 'Notifications' }).getByRole('listitem', { name: title });
  }

  async markRead(title: string): Promise<void> {
    const item = this.item(title);
    await item.getByRole('button', { name: 'Mark as read' }).click();
    await item.getByRole('button', { name: 'Mark as read' }).waitFor({ state: 'detached' });
  }
}
