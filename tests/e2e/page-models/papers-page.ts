import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';
import { chooseOption } from '../antd.js';

/** 试卷与发布 (admin): the paper table and the paper dialog that builds a paper on a bank domain and publishes it. */
export class PapersPage {
  constructor(private readonly page: Page) {}

  row(name: string): Locator {
    return this.page.getByRole('table', { name: zh('bank.papers.title') }).getByRole('row').filter({ hasText: name });
  }

  dialog(): Locator {
    return this.page.getByRole('form', { name: zh('bank.papers.new') });
  }

  /** Fills the new-paper dialog; leaves it open so that the caller can look before saving. */
  async fillNew(p: { name: string; domain: string; domainQuestions: number; questions: number; pass: number; minutes: number }): Promise<void> {
    await this.page.getByRole('button', { name: zh('bank.papers.new') }).click();
    const form = this.dialog();
    await form.getByLabel(zh('bank.papers.name')).fill(p.name);
    await chooseOption(this.page, form.getByLabel(zh('bank.papers.domain')), zh('bank.domainWithCount', { domain: p.domain, count: p.domainQuestions }));
    await form.getByLabel(zh('bank.papers.questionCount')).fill(String(p.questions));
    await form.getByLabel(zh('bank.papers.passScore')).fill(String(p.pass));
    await form.getByLabel(zh('bank.papers.duration')).fill(String(p.minutes));
  }
}
