import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';
import { chooseOption, pickRadio } from '../antd.js';

/** 部门 (admin): a searchable table of departments, a dialog to create or rename one. */
export class DepartmentsPage {
  constructor(private readonly page: Page) {}

  row(name: string): Locator {
    return this.page.getByRole('table', { name: zh('org.departments.title') }).getByRole('row').filter({ hasText: name });
  }

  private async fill(title: string, name: string, description?: string): Promise<void> {
    const form = this.page.getByRole('dialog', { name: title }).getByRole('form', { name: title });
    await form.getByLabel(zh('org.departments.name')).fill(name);
    if (description !== undefined) await form.getByLabel(zh('org.departments.description')).fill(description);
    await form.locator('button[type="submit"]').click();
    await this.page.getByRole('dialog', { name: title }).waitFor({ state: 'detached' });
  }

  async create(name: string, description = ''): Promise<void> {
    await this.page.getByRole('button', { name: zh('org.departments.new') }).click();
    await this.fill(zh('org.departments.new'), name, description);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.row(from).getByRole('button', { name: zh('org.departments.renameOf', { name: from }) }).click();
    await this.fill(zh('org.departments.edit'), to);
  }
}

/** 岗位 (admin): the positions table; a new position opens its page, where knowledge items are added. */
export class PositionsPage {
  constructor(private readonly page: Page) {}

  row(name: string): Locator {
    return this.page.getByRole('table', { name: zh('org.positions.title') }).getByRole('row').filter({ hasText: name });
  }

  /** Creates the position and waits for its own page. */
  async create(name: string, description = ''): Promise<void> {
    await this.page.getByRole('button', { name: zh('org.positions.new') }).click();
    const title = zh('org.positions.new');
    const form = this.page.getByRole('dialog', { name: title }).getByRole('form', { name: title });
    await form.getByLabel(zh('org.positions.name')).fill(name);
    await form.getByLabel(zh('org.positions.description')).fill(description);
    await form.getByRole('button', { name: zh('org.create') }).click();
    await this.page.getByRole('heading', { level: 1, name }).waitFor();
  }

  knowledge(): Locator {
    return this.page.getByRole('table', { name: zh('org.knowledge.title') });
  }

  knowledgeRow(title: string): Locator {
    return this.knowledge().getByRole('row').filter({ hasText: title });
  }

  /** On a position's page: adds an item of its own text, or picks a course or product by name (the title follows it). */
  async addKnowledge(item: { title?: string; kind?: 'text' | 'course' | 'product'; pick?: string; mandatory?: boolean }): Promise<void> {
    await this.page.getByRole('button', { name: zh('org.knowledge.add') }).click();
    const dialog = this.page.getByRole('dialog', { name: zh('org.knowledge.add') });
    const kind = item.kind ?? 'text';
    await pickRadio(dialog.getByRole('radiogroup', { name: zh('org.knowledge.kind') }), zh(`org.knowledge.kinds.${kind}`));
    if (item.pick) await chooseOption(this.page, dialog.getByRole('combobox', { name: zh(`org.knowledge.${kind}`) }), item.pick, { search: true });
    if (item.title) await dialog.getByLabel(zh('org.knowledge.itemTitle')).fill(item.title);
    if (item.mandatory === false) await dialog.getByRole('switch', { name: zh('org.knowledge.mandatory') }).click();
    await dialog.getByRole('form').locator('button[type="submit"]').click();
    await dialog.waitFor({ state: 'detached' });
  }
}
