import type { Locator, Page } from 'playwright-core';

export class ProductsPage {
  constructor(private readonly page: Page) {}

  list(): Locator {
    return this.page.getByRole('list', { name: 'Products' });
  }

  card(name: string): Locator {
    return this.list().getByRole('link').filter({ hasText: name });
  }

  async filterBy(category: string): Promise<void> {
    await this.page.getByRole('group', { name: 'Filter by category' }).getByRole('button', { name: category, exact: true }).click();
  }
}
