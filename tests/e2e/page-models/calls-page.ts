import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';

/** 通话转写: send a recording (its channels named or not), follow the job, read the transcript and act on it. */
export class CallsPage {
  constructor(private readonly page: Page) {}

  get form(): Locator {
    return this.page.getByRole('form', { name: zh('calls.upload.title') });
  }

  async transcribe(file: string, { bySpeaker = true } = {}): Promise<void> {
    await this.form.getByLabel(zh('calls.upload.file'), { exact: true }).setInputFiles(file);
    const speakers = this.form.getByRole('checkbox', { name: zh('calls.upload.bySpeaker') });
    if ((await speakers.isChecked()) !== bySpeaker) await speakers.click();
    await this.form.getByRole('button', { name: zh('calls.upload.submit'), exact: true }).click();
  }

  /** What the left and right channel fields show (the chosen role's label, or nothing). */
  async channelNames(): Promise<[string, string]> {
    const text = async (label: string) => {
      const item = this.form.locator('.ant-form-item').filter({ has: this.page.getByText(zh(label), { exact: true }) });
      return (await item.innerText()).replace(zh(label), '').trim();
    };
    return [await text('calls.upload.left'), await text('calls.upload.right')];
  }

  get progress(): Locator {
    return this.page.getByRole('region', { name: zh('calls.job.title') });
  }

  /** The failed transcriptions listed under 我的通话转写, each with its reason and a retry. */
  get failedJobs(): Locator {
    return this.page.getByLabel(zh('calls.list.failedTitle'));
  }

  get transcript(): Locator {
    return this.page.getByRole('list', { name: zh('calls.transcript.label') });
  }

  /** The transcript's lines as [time, speaker, text]. */
  async lines(): Promise<[string, string, string][]> {
    return this.transcript.getByRole('listitem').evaluateAll((items) =>
      items.map((li) => [li.querySelector('.transcript-time')?.textContent ?? '', li.querySelector('.speaker')?.textContent ?? '', li.querySelector('.transcript-text')?.textContent ?? ''] as [string, string, string]),
    );
  }

  /** The speaker labels' colour classes, in transcript order. */
  async speakerClasses(): Promise<string[]> {
    return this.transcript.locator('.speaker').evaluateAll((spans) => spans.map((s) => s.className));
  }

  async runAnalysis(): Promise<Locator> {
    const card = this.page.getByRole('region', { name: zh('calls.analysis.title') });
    await card.getByRole('button', { name: zh('calls.analysis.run') }).click();
    return card.getByRole('region', { name: zh('calls.analysis.result') });
  }

  async createReport(): Promise<void> {
    const card = this.page.getByRole('region', { name: zh('calls.coaching.title') });
    await card.getByRole('button', { name: zh('calls.coaching.create') }).click();
  }
}
