import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';

export class NotificationsPage {
  constructor(private readonly page: Page) {}

  item(title: string): Locator {
    return this.page.getByRole('list', { name: zh('notifications.title') }).getByRole('listitem', { name: title });
  }

  async markRead(title: string): Promise<void> {
    const item = this.item(title);
    await item.getByRole('button', { name: zh('notifications.markRead') }).click();
    await item.getByRole('button', { name: zh('notifications.markRead') }).waitFor({ state: 'detached' });
  }
}
