import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';
import { pickRadio } from '../antd.js';

/** The admin review screens (media, knowledge): a table of items, each with 通过 (approve) and 驳回… (reject). */
export class ReviewPage {
  constructor(
    private readonly page: Page,
    /** The table's label key: 'media.review.tableLabel' or 'knowledge.tableLabel'. */
    private readonly tableKey: string,
  ) {}

  row(name: string): Locator {
    return this.page.getByRole('table', { name: zh(this.tableKey) }).getByRole('row').filter({ hasText: name });
  }

  async approve(name: string): Promise<void> {
    await this.row(name).getByRole('button', { name: zh('media.review.approveNamed', { name }) }).click();
  }

  async reject(name: string, reason: string): Promise<void> {
    const row = this.row(name);
    await row.getByRole('button', { name: zh('media.review.startRejectNamed', { name }) }).click();
    await row.getByLabel(zh('media.review.reason')).fill(reason);
    await row.getByRole('button', { name: zh('media.review.reject'), exact: true }).click();
  }

  async showStatus(status: 'pending' | 'approved' | 'rejected' | 'all'): Promise<void> {
    const label = status === 'all' ? zh('common.filter.all') : zh(`media.review.status.${status}`);
    await pickRadio(this.page.getByRole('radiogroup', { name: zh('media.review.statusFilter') }), label);
  }
}
