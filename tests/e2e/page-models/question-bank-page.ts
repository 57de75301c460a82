import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';
import { pickRadio } from '../antd.js';

export type NewQuestion =
  | { type: 'single' | 'multiple'; domain: string; stem: string; options: string[]; answer: string[]; explanation?: string }
  | { type: 'true_false'; domain: string; stem: string; answer: boolean; explanation?: string };

/** 题库 (admin): the question table, the question dialog for every type, and the preview. */
export class QuestionBankPage {
  constructor(private readonly page: Page) {}

  row(stem: string): Locator {
    return this.page.getByRole('table', { name: zh('bank.questions.title') }).getByRole('row').filter({ hasText: stem });
  }

  async create(q: NewQuestion): Promise<void> {
    await this.page.getByRole('button', { name: zh('bank.questions.new') }).click();
    const form = this.page.getByRole('form', { name: zh('bank.questions.new') });
    await form.getByLabel(zh('bank.questions.domain')).fill(q.domain);
    await pickRadio(form.getByRole('radiogroup', { name: zh('bank.questions.type') }), zh(`bank.type.${q.type}`));
    await form.getByLabel(zh('bank.questions.stem')).fill(q.stem);
    if (q.type === 'true_false') {
      await form.getByRole('radiogroup', { name: zh('bank.questions.answer') }).getByLabel(zh(q.answer ? 'exams.trueFalse.true' : 'exams.trueFalse.false')).check();
    } else {
      const keys = 'ABCDEFGH';
      for (let i = 4; i < q.options.length; i++) await form.getByRole('button', { name: zh('bank.questions.addOption') }).click();
      for (const [i, text] of q.options.entries()) await form.getByLabel(zh('bank.questions.optionText', { key: keys[i]! }), { exact: true }).fill(text);
      const answers = form.getByRole(q.type === 'single' ? 'radiogroup' : 'group', { name: zh('bank.questions.answer') });
      for (const key of q.answer) await answers.getByLabel(`${key}. ${q.options[keys.indexOf(key)]}`).check();
    }
    if (q.explanation) await form.getByLabel(zh('bank.questions.explanation')).fill(q.explanation);
    await form.getByRole('button', { name: zh('common.action.save') }).click();
    await this.page.getByRole('dialog', { name: zh('bank.questions.new') }).waitFor({ state: 'detached' });
  }

  async preview(stem: string): Promise<Locator> {
    await this.row(stem).getByRole('button', { name: new RegExp(`^${zh('bank.preview.open')} `) }).click();
    return this.page.getByRole('dialog', { name: zh('bank.preview.title') });
  }

  async disable(stem: string): Promise<void> {
    await this.row(stem).getByRole('button', { name: new RegExp(`^${zh('bank.questions.disable')} `) }).click();
    await this.page.getByRole('tooltip').getByRole('button', { name: zh('bank.questions.disable') }).click();
  }
}
