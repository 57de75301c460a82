import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';

/** 产品管理 (admin): the server-paged product table, the product dialog and the two-step file import. */
export class ProductAdminPage {
  constructor(private readonly page: Page) {}

  table(): Locator {
    return this.page.getByRole('table', { name: zh('content.products.title') });
  }

  row(name: string): Locator {
    return this.table().getByRole('row').filter({ hasText: name });
  }

  async search(q: string): Promise<void> {
    const box = this.page.getByRole('search', { name: zh('content.products.search') }).getByLabel(zh('common.filter.search'));
    await box.fill(q);
    await box.press('Enter');
  }

  /** Fills the product dialog (new or edit) with the given fields and saves. */
  async fill(dialogTitle: string, fields: { name?: string; code?: string; category?: string; commission?: string }): Promise<void> {
    const form = this.page.getByRole('dialog', { name: dialogTitle }).getByRole('form', { name: dialogTitle });
    const labels = { name: 'content.products.name', code: 'content.products.code', category: 'content.products.category', commission: 'content.products.commission' } as const;
    for (const [field, value] of Object.entries(fields)) if (value !== undefined) await form.getByLabel(zh(labels[field as keyof typeof labels]), { exact: true }).fill(value);
    await form.getByRole('button', { name: zh('common.action.save') }).click();
  }

  async create(fields: { name: string; code?: string; category?: string; commission?: string }): Promise<void> {
    await this.page.getByRole('button', { name: zh('content.products.new') }).click();
    await this.fill(zh('content.products.new'), fields);
  }

  async deactivate(name: string): Promise<void> {
    await this.row(name).getByRole('button', { name: `${zh('content.products.deactivate')} ${name}` }).click();
    await this.page.getByRole('tooltip').filter({ hasText: zh('content.products.deactivateConfirm', { name }) }).getByRole('button', { name: zh('content.products.deactivate') }).click();
  }

  importDialog(): Locator {
    return this.page.getByRole('dialog', { name: zh('content.import.title') });
  }

  /** Opens the import dialog when needed, chooses the file and runs the dry run. */
  async check(file: { name: string; buffer: Buffer }): Promise<Locator> {
    if (!(await this.importDialog().isVisible())) await this.page.getByRole('button', { name: zh('content.import.open') }).click();
    const dialog = this.importDialog();
    await dialog.getByLabel(zh('content.import.file')).setInputFiles({ ...file, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    await dialog.getByRole('button', { name: zh('content.import.check') }).click();
    return dialog.getByRole('region', { name: zh('content.import.report') });
  }

  errorRows(): Locator {
    return this.importDialog().getByRole('table', { name: zh('content.import.errors') }).getByRole('row');
  }
}
