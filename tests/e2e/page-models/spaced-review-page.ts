import type { Locator, Page } from 'playwright-core';
import { text, type Language } from '../i18n.js';

/** The home page's review card and the review session screen. */
export class SpacedReviewPage {
  constructor(
    private readonly page: Page,
    private readonly language: Language = 'zh-CN',
  ) {}

  private t = (key: string, params?: Record<string, string | number>) => text(this.language, key, params);

  homeCard(): Locator {
    return this.page.getByRole('region', { name: this.t('spacedReview.home.title') });
  }

  /** The card being reviewed (its region is named by its position, e.g. 第 1 / 2 题). */
  current(position: { current: number; total: number }): Locator {
    return this.page.getByRole('region', { name: this.t('spacedReview.session.progress', position) });
  }

  async answer(position: { current: number; total: number }, option: string): Promise<void> {
    const card = this.current(position);
    await card.getByRole('radio', { name: option }).check();
    await card.getByRole('button', { name: this.t('spacedReview.session.submit') }).click();
    await card.getByText(this.t('spacedReview.session.explanation')).first().waitFor();
  }

  async next(position: { current: number; total: number }): Promise<void> {
    const last = position.current === position.total;
    await this.current(position).getByRole('button', { name: this.t(last ? 'spacedReview.session.finish' : 'spacedReview.session.next') }).click();
  }
}
