import type { Locator, Page } from 'playwright-core';
import { text, type Language } from '../i18n.js';

/** The frame around every page once logged in: the grouped sidebar, and the header with the user, language and bell. */
export class Shell {
  constructor(
    private readonly page: Page,
    private readonly language: Language = 'zh-CN',
  ) {}

  private t = (key: string, params?: Record<string, string | number>) => text(this.language, key, params);

  get nav(): Locator {
    return this.page.getByRole('navigation', { name: this.t('shell.nav.label') });
  }

  /** A sidebar entry by its key in shell.json, e.g. 'products' for shell.nav.products. */
  navItem(key: string): Locator {
    return this.nav.getByRole('menuitem', { name: this.t(`shell.nav.${key}`), exact: true });
  }

  async open(key: string): Promise<void> {
    await this.navItem(key).click();
  }

  /** A sidebar group heading (学习, 考试, 工作台, 管理) by its key. */
  group(key: string): Locator {
    return this.nav.getByText(this.t(`shell.groups.${key}`), { exact: true });
  }

  get bell(): Locator {
    return this.page.getByTestId('notifications-bell');
  }

  /** The count once the header has heard it from the server (the bell carries no data-unread before that). */
  async unreadCount(): Promise<number> {
    const known = this.page.locator('[data-testid="notifications-bell"][data-unread]');
    await known.waitFor();
    return Number(await known.getAttribute('data-unread'));
  }

  async logOut(): Promise<void> {
    await this.page.getByRole('button', { name: this.t('shell.header.logout') }).click();
  }

  /** Switches the interface language from the header; the switch names each language in itself. */
  /** Switches the language; the screen changes at once, and this also waits until the choice is saved to the account. */
  async switchTo(language: Language): Promise<void> {
    const saved = this.page.waitForResponse((res) => new URL(res.url()).pathname === '/api/auth/me' && res.request().method() === 'PUT');
    await this.page.getByRole('group', { name: '语言 Language' }).getByRole('button', { name: language === 'en' ? 'English' : '中文' }).click();
    await this.page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
    const res = await saved;
    if (!res.ok()) throw new Error(`saving the language answered ${res.status()}`);
  }

  heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  get signedInUser(): Locator {
    return this.page.getByTestId('signed-in-user');
  }

  get connectionBanner(): Locator {
    return this.page.getByTestId('connection-banner');
  }
}
