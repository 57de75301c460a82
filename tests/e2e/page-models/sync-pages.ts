import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';

/** 分支设备 (central admin): the devices table, the "new device" dialog and the one-time enrolment code. */
export class DevicesPage {
  constructor(private readonly page: Page) {}

  row(name: string): Locator {
    return this.page.getByRole('table', { name: zh('branchSync.devices.title') }).getByRole('row').filter({ hasText: name });
  }

  async create(name: string): Promise<string> {
    await this.page.getByRole('button', { name: zh('branchSync.devices.new') }).click();
    const form = this.page.getByRole('dialog', { name: zh('branchSync.devices.new') }).getByRole('form', { name: zh('branchSync.devices.new') });
    await form.getByLabel(zh('branchSync.devices.name')).fill(name);
    await form.getByRole('button', { name: zh('branchSync.devices.create') }).click();
    const token = this.page.getByLabel(zh('branchSync.devices.token'));
    await token.waitFor();
    return (await token.innerText()).trim();
  }
}

/** 同步 (branch admin): the enrolment form, the status card and "sync now". */
export class SyncPage {
  constructor(private readonly page: Page) {}

  async enrol(url: string, token: string): Promise<void> {
    const form = this.page.getByRole('form', { name: zh('branchSync.enrol.title') });
    await form.getByLabel(zh('branchSync.enrol.url')).fill(url);
    await form.getByLabel(zh('branchSync.enrol.token')).fill(token);
    await form.getByRole('button', { name: zh('branchSync.enrol.submit') }).click();
  }

  status(): Locator {
    return this.page.getByRole('region', { name: zh('branchSync.status.title') });
  }

  async syncNow(): Promise<void> {
    await this.status().getByRole('button', { name: zh('branchSync.status.syncNow') }).click();
  }
}
