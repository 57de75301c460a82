import type { Locator, Page } from 'playwright-core';
import { text, type Language } from '../i18n.js';

/** The trainee's dashboard: one region per card, named by its title. */
export class HomePage {
  constructor(
    private readonly page: Page,
    private readonly language: Language = 'zh-CN',
  ) {}

  private t = (key: string, params?: Record<string, string | number>) => text(this.language, key, params);

  /** A card by its key under home.*, e.g. 'position' for home.position.title. */
  card(key: 'position' | 'progress' | 'exams' | 'certificates' | 'notifications'): Locator {
    return this.page.getByRole('region', { name: this.t(`home.${key}.title`) });
  }

  /** A knowledge item of my position, by its title. */
  knowledgeItem(title: string): Locator {
    return this.card('position').getByRole('list', { name: this.t('home.position.items') }).getByRole('listitem').filter({ hasText: title });
  }
}
