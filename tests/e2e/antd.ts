// Driving antd widgets that are not native form controls.
import type { Locator, Page } from 'playwright-core';

/** Opens an antd Select (found by its label) and picks the option whose text is `option`; a search box gets the text typed first. */
export async function chooseOption(page: Page, select: Locator, option: string, { search = false } = {}): Promise<void> {
  await select.click();
  if (search) await select.fill(option);
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first().click();
}

/** Picks an option of an antd Radio.Group (button style or not) by its visible text; the radio input itself is hidden. */
export async function pickRadio(group: Locator, label: string): Promise<void> {
  await group.locator('label').filter({ hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).click();
}
