import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';
import { chooseOption, pickRadio } from '../antd.js';

/** 考试记录 (admin): everyone's records, filters shared by the list, the charts tab and the Excel export. */
export class AdminRecordsPage {
  constructor(private readonly page: Page) {}

  search(): Locator {
    return this.page.getByRole('search', { name: zh('records.everyone.search') });
  }

  table(): Locator {
    return this.page.getByRole('table', { name: zh('records.tableLabel') });
  }

  /** A department by name, or 全部 for every department. */
  async filterDepartment(name: string): Promise<void> {
    await chooseOption(this.page, this.search().getByLabel(zh('examStats.department')), name);
    const chosen = name === zh('common.filter.all') ? '' : name;
    // The filters live in the address (after the #, where the app routes); the page has taken the choice once it is there.
    await this.page.waitForURL((url) => (new URL(url.hash.slice(1), url.origin).searchParams.get('department') ?? '') === chosen);
  }

  async showCharts(): Promise<Locator> {
    await this.page.getByRole('tab', { name: zh('examStats.chartsTab') }).click();
    return this.page.getByRole('region', { name: zh('examStats.title') });
  }

  async trendBy(unit: 'byDay' | 'byMonth'): Promise<void> {
    await pickRadio(this.page.getByRole('radiogroup', { name: zh('examStats.granularity') }), zh(`examStats.${unit}`));
  }

  exportButton(): Locator {
    return this.page.getByRole('button', { name: zh('examStats.export') });
  }
}
