import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';

/** 语音转写与模型 (admin): the audio routes and whether each can run, the whisper models, installing one. */
export class SpeechPage {
  constructor(private readonly page: Page) {}

  route(name: string): Locator {
    return this.page.getByRole('table', { name: zh('speech.routes.title') }).getByRole('row').filter({ hasText: name });
  }

  model(name: string): Locator {
    return this.page.getByRole('table', { name: zh('speech.models.title') }).getByRole('row').filter({ hasText: name });
  }

  async install(file: string): Promise<void> {
    const form = this.page.getByRole('form', { name: zh('speech.install.title') });
    await form.getByLabel(zh('speech.install.file'), { exact: true }).setInputFiles(file);
    await form.getByRole('button', { name: zh('speech.install.submit'), exact: true }).click();
  }

  async verify(name: string): Promise<void> {
    await this.model(name).getByRole('button', { name: zh('speech.models.verifyNamed', { name }) }).click();
  }

  async remove(name: string): Promise<void> {
    await this.model(name).getByRole('button', { name: zh('speech.models.removeNamed', { name }) }).click();
    await this.page.locator('.ant-popconfirm').getByRole('button', { name: zh('speech.models.remove'), exact: true }).click();
  }
}
