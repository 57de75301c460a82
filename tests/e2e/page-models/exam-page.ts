import type { Locator, Page } from 'playwright-core';
import { text, type Language } from '../i18n.js';

/** An exam: its cover, the session (timer, questions, submit, the leave dialog) and the result. */
export class ExamPage {
  constructor(
    private readonly page: Page,
    private readonly language: Language = 'zh-CN',
  ) {}

  private t = (key: string, params?: Record<string, string | number>) => text(this.language, key, params);

  async start(questionCount: number): Promise<void> {
    await this.page.getByRole('button', { name: this.t('exams.cover.startExam', { count: questionCount }) }).click();
    await this.timer.waitFor();
  }

  get timer(): Locator {
    return this.page.getByRole('timer', { name: this.t('exams.session.timeLeft') });
  }

  /** An option (by its label as shown, e.g. '正确' or 'B. 按季度') of the question with this stem. */
  option(stem: string, option: string): Locator {
    return this.page.getByRole('group', { name: stem }).getByLabel(option);
  }

  /** Chooses an option of the question with this stem. */
  async answer(stem: string, option: string): Promise<void> {
    await this.option(stem, option).check();
  }

  /** The autosave's status text: 'saved', 'saving' or 'retrying'. */
  saveStatus(status: 'saved' | 'saving' | 'retrying'): Locator {
    return this.page.getByRole('status').getByText(this.t(`exams.session.save.${status}`), { exact: true });
  }

  /** Submits: the submit button, then the confirmation dialog's yes. */
  async submit(): Promise<void> {
    await this.page.getByRole('button', { name: this.t('exams.session.submit') }).click();
    await this.confirmDialog.getByRole('button', { name: this.t('integrity.confirm.ok') }).click();
    await this.confirmDialog.waitFor({ state: 'hidden' });
  }

  get confirmDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('integrity.confirm.title') });
  }

  /** 题目导航: the navigator of the session. */
  get navigator(): Locator {
    return this.page.getByRole('navigation', { name: this.t('integrity.navigator.title') });
  }

  /** Flags the question with this stem for another look. */
  async flag(stem: string): Promise<void> {
    await this.page.locator('li', { has: this.page.getByRole('group', { name: stem }) }).getByRole('button', { name: this.t('integrity.flag.add') }).click();
  }

  get leaveDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('exams.leave.title') });
  }

  async leave(): Promise<void> {
    await this.leaveDialog.getByRole('button', { name: this.t('exams.leave.leave') }).click();
    await this.leaveDialog.waitFor({ state: 'hidden' });
  }

  async stay(): Promise<void> {
    await this.leaveDialog.getByRole('button', { name: this.t('exams.leave.stay') }).click();
    await this.leaveDialog.waitFor({ state: 'hidden' });
  }

  get answers(): Locator {
    return this.page.getByRole('list', { name: this.t('exams.result.answers') });
  }

  /** A graded answer of the result, by the question's stem. */
  graded(stem: string): Locator {
    return this.answers.getByRole('listitem', { name: stem });
  }
}
