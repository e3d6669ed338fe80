import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const THEMES = ['dark', 'light'] as const;

/**
 * Switches the page's theme the way the app does (<html data-theme>), without reloading. Colour
 * transitions are switched off first so axe measures the new colours, not a frame halfway there.
 */
export async function setTheme(page: Page, theme: (typeof THEMES)[number]): Promise<void> {
  await page.evaluate((t) => {
    if (!document.getElementById('e2e-no-transitions')) {
      const style = document.createElement('style');
      style.id = 'e2e-no-transitions';
      style.textContent = '*, *::before, *::after { transition: none !important; }';
      document.head.append(style);
    }
    document.documentElement.dataset.theme = t;
  }, theme);
}

export const WIDTHS = [1280, 375] as const;

/**
 * axe for one run in this page alone. The default mode opens a blank page for every run to merge
 * cross-origin frame results (the app has no iframes) and reports every passing node too; four runs per
 * screen made that the slowest step of the browser tests on a loaded machine.
 */
const axe = (page: Page) => new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });

/**
 * Fails on any serious or critical axe-core violation on the page as it is now, in both themes at
 * 1280 and 375 px. The viewport and theme are put back afterwards.
 */
export async function expectNoSeriousA11y(page: Page): Promise<void> {
  const original = await page.evaluate(() => document.documentElement.dataset.theme ?? 'dark');
  const size = page.viewportSize();
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: size?.height ?? 800 });
    for (const theme of THEMES) {
      await setTheme(page, theme);
      const { violations } = await axe(page).analyze();
      for (const v of violations) {
        if (v.impact !== 'serious' && v.impact !== 'critical') continue;
        found.push(`${theme} ${width}px ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
    }
  }
  if (size) await page.setViewportSize(size);
  await setTheme(page, original === 'light' ? 'light' : 'dark');
  expect(found).toEqual([]);
}
