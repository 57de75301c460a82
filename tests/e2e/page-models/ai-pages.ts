import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';
import { chooseOption, pickRadio } from '../antd.js';
import { searchList } from './list-search.js';

/**
 * Adds a route that runs on this computer (a local chat model or local whisper) through the route dialog: the
 * dialog shows no URL for it, and the model file is picked from the installed ones.
 */
export async function addLocalRoute(page: Page, route: { newButton: string; kind: string; name: string; file: string }): Promise<void> {
  await page.getByRole('button', { name: route.newButton }).click();
  const dialog = page.getByRole('dialog', { name: zh('ai.routes.new') });
  await pickRadio(dialog, route.kind);
  assert.equal(await dialog.getByLabel(zh('ai.routes.baseUrl')).count(), 0, 'a local route has no URL');
  await dialog.getByLabel(zh('ai.routes.name'), { exact: true }).fill(route.name);
  await chooseOption(page, dialog.getByLabel(zh('ai.routes.modelFile')), route.file);
  await dialog.getByRole('button', { name: zh('ai.create') }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** 模型路由 (admin): chat routes with masked keys, a dialog to add or edit one, and a test-connection button per row. */
export class ModelRoutesPage {
  constructor(private readonly page: Page) {}

  row(name: string): Locator {
    return this.page.getByRole('table', { name: zh('ai.routes.title') }).getByRole('row').filter({ hasText: name });
  }

  rows(): Locator {
    return this.page.getByRole('table', { name: zh('ai.routes.title') }).locator('tbody').getByRole('row');
  }

  search(q: string): Promise<void> {
    return searchList(this.page, zh('ai.routes.search'), q);
  }

  async add(route: { name: string; baseUrl: string; model: string; apiKey?: string }): Promise<void> {
    await this.page.getByRole('button', { name: zh('ai.routes.new') }).click();
    const dialog = this.page.getByRole('dialog', { name: zh('ai.routes.new') });
    await dialog.getByLabel(zh('ai.routes.name'), { exact: true }).fill(route.name);
    await dialog.getByLabel(zh('ai.routes.model'), { exact: true }).fill(route.model);
    await dialog.getByLabel(zh('ai.routes.baseUrl')).fill(route.baseUrl);
    if (route.apiKey) await dialog.getByLabel(zh('ai.routes.apiKey')).fill(route.apiKey);
    await dialog.getByRole('button', { name: zh('ai.create') }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  edit(name: string): Promise<void> {
    return this.row(name).getByRole('button', { name: zh('ai.editOf', { name }) }).click();
  }

  async test(name: string): Promise<Locator> {
    await this.row(name).getByRole('button', { name: zh('ai.routes.testOf', { name }) }).click();
    return this.row(name).getByRole('status');
  }
}

/** 专家 (admin): specialists with a job description and ordered allowed skills. */
export class SpecialistsPage {
  constructor(private readonly page: Page) {}

  row(name: string): Locator {
    return this.page.getByRole('table', { name: zh('ai.specialists.title') }).getByRole('row').filter({ hasText: name });
  }

  search(q: string): Promise<void> {
    return searchList(this.page, zh('ai.specialists.search'), q);
  }

  async create(specialist: { name: string; key: string; jobDescription: string; skills: string[] }): Promise<void> {
    await this.page.getByRole('button', { name: zh('ai.specialists.new') }).click();
    const dialog = this.page.getByRole('dialog', { name: zh('ai.specialists.new') });
    await dialog.getByLabel(zh('ai.specialists.name')).fill(specialist.name);
    await dialog.getByLabel(zh('ai.key'), { exact: true }).fill(specialist.key);
    await dialog.getByLabel(zh('ai.specialists.jobDescription')).fill(specialist.jobDescription);
    const picker = dialog.getByRole('combobox', { name: zh('ai.order.add', { what: zh('ai.specialists.skills') }) });
    for (const skill of specialist.skills) await chooseOption(this.page, picker, skill, { search: true });
    await dialog.getByRole('button', { name: zh('ai.create') }).click();
    await dialog.waitFor({ state: 'detached' });
  }
}
