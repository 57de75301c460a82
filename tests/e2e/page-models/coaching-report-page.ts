import type { Locator, Page } from 'playwright-core';
import { zh } from '../i18n.js';

/** A coaching report: figures, facts and objections with their quotes and citations, the call's audio, the role-play. */
export class CoachingReportPage {
  constructor(private readonly page: Page) {}

  fact(label: string): Locator {
    return this.page.getByRole('region', { name: zh('coaching.facts.title') }).getByRole('article', { name: zh('coaching.facts.named', { label }) });
  }

  citations(finding: Locator): Locator {
    return finding.getByRole('group', { name: zh('coaching.citation.label') });
  }

  get objections(): Locator {
    return this.page.getByRole('region', { name: zh('coaching.objections.title') }).getByRole('article');
  }

  get practice(): Locator {
    return this.page.getByRole('region', { name: zh('coaching.practice.title') });
  }

  get audio(): Locator {
    return this.page.locator('audio');
  }

  playFrom(finding: Locator, time: string): Locator {
    return finding.getByRole('button', { name: zh('coaching.player.playFrom', { time }) });
  }

  /** The rep's review list item of a misstated fact, a checkbox ticked once reviewed. */
  reviewItem(label: string, stated: string, correct: string): Locator {
    return this.page.getByRole('region', { name: zh('coaching.review.title') }).getByRole('checkbox', { name: zh('coaching.review.item', { label, stated, correct }) });
  }

  get rolePlay(): Locator {
    return this.page.getByRole('button', { name: zh('coaching.report.rolePlay') });
  }
}
