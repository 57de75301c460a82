import type { Locator, Page } from 'playwright-core';

/** The company introduction: its media, each a group named by its file name. */
export class CompanyPage {
  constructor(private readonly page: Page) {}

  media(filename: string): Locator {
    return this.page.getByRole('group', { name: filename, exact: true });
  }

  image(filename: string): Locator {
    return this.media(filename).getByRole('img', { name: filename, exact: true });
  }

  audio(filename: string): Locator {
    return this.media(filename).locator('audio');
  }

  /** The PDF preview's canvas once a page of it has been drawn. */
  pdfPage(filename: string, page = 1): Locator {
    return this.media(filename).locator(`canvas.pdf-page[data-rendered="${page}"]`);
  }
}
