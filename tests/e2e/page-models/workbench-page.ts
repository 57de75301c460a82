import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';
import { pager, searchList } from './list-search.js';

/** 数字员工: the task list (pinned first), the selected task's actions, exchanges and artifacts, and the composer. */
export class WorkbenchPage {
  constructor(private readonly page: Page) {}

  get tasks(): Locator {
    return this.page.getByRole('region', { name: zh('workbench.tasks') });
  }

  /** The task list's entries (buttons), in the order shown. */
  taskButtons(): Locator {
    return this.tasks.getByRole('listitem').getByRole('button');
  }

  task(title: string | RegExp): Locator {
    return this.tasks.getByRole('button', { name: title });
  }

  get conversation(): Locator {
    return this.page.getByRole('region', { name: zh('workbench.conversation') });
  }

  async send(message: string): Promise<void> {
    const composer = this.page.getByRole('form', { name: zh('workbench.composer') });
    await composer.getByLabel(zh('workbench.message'), { exact: true }).fill(message);
    await composer.getByRole('button', { name: zh('workbench.send') }).click();
  }

  async newTask(): Promise<void> {
    await this.page.getByRole('button', { name: zh('workbench.newTask') }).click();
  }

  /** Pins or unpins the selected task. */
  togglePin(): Promise<void> {
    return this.conversation.getByRole('button', { name: new RegExp(`^(${zh('workbench.task.pin')}|${zh('workbench.task.unpin')})$`) }).click();
  }

  async rename(title: string): Promise<void> {
    await this.conversation.getByRole('button', { name: zh('workbench.task.rename') }).click();
    const dialog = this.page.getByRole('dialog', { name: zh('workbench.task.rename') });
    await dialog.getByLabel(zh('workbench.task.title')).fill(title);
    await dialog.getByRole('button', { name: zh('common.action.save') }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  /** Asks to delete the selected task; the confirmation names it. `confirm: false` cancels instead. */
  async delete(title: string, { confirm = true } = {}): Promise<void> {
    await this.conversation.getByRole('button', { name: zh('workbench.task.delete') }).click();
    const question = this.page.getByRole('tooltip').filter({ hasText: zh('workbench.task.deleteConfirm', { title }) });
    await question.getByRole('button', { name: confirm ? zh('workbench.task.delete') : zh('common.action.cancel') }).click();
  }

  /** Searches the task titles (on the server); '' clears the search. */
  searchTasks(q: string): Promise<void> {
    return searchList(this.page, zh('workbench.searchTasks'), q);
  }

  projectFilter(): Locator {
    return this.tasks.getByRole('combobox', { name: zh('workbench.projects.filter') });
  }

  get artifacts(): Locator {
    return this.page.getByRole('region', { name: zh('workbench.artifacts.title') });
  }
}

/** 学习笔记: notes with a server-side search and a dialog to write one. */
export class NotesPage {
  constructor(private readonly page: Page) {}

  list(): Locator {
    return this.page.getByRole('list', { name: zh('workbench.notes.title') });
  }

  async create(title: string, content: string): Promise<void> {
    await this.page.getByRole('button', { name: zh('workbench.notes.new') }).click();
    const dialog = this.page.getByRole('dialog', { name: zh('workbench.notes.new') });
    await dialog.getByLabel(zh('workbench.notes.noteTitle')).fill(title);
    await dialog.getByLabel(zh('workbench.notes.content')).fill(content);
    await dialog.getByRole('button', { name: zh('common.action.save') }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  search(q: string): Promise<void> {
    return searchList(this.page, zh('workbench.notes.search'), q);
  }

  pager(): Locator {
    return pager(this.page);
  }
}
