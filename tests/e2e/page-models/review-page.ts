import type { Locator, Page } from 'playwright-core';

/** The admin review screens (media, knowledge): a table of items, each with Approve and Reject… */
export class ReviewPage {
  constructor(private readonly page: Page) {}

  row(table: string, name: string): Locator {
    return this.page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: name });
  }

  async approve(table: string, name: string): Promise<void> {
    await this.row(table, name).getByRole('button', { name: `Approve ${name}` }).click();
  }

  async reject(table: string, name: string, reason: string): Promise<void> {
    const row = this.row(table, name);
    await row.getByRole('button', { name: `Reject ${name}…` }).click();
    await row.getByLabel('Reason for rejecting').fill(reason);
    await row.getByRole('button', { name: 'Reject', exact: true }).click();
  }
}
