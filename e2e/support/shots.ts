import path from 'node:path';
import type { Page, PageScreenshotOptions } from '@playwright/test';
import { setTheme, THEMES } from './a11y.ts';
import { ROOT } from './env.ts';

/**
 * Screenshots for looking at by hand are taken only when E2E_SHOTS is set: CI keeps none of the files, and
 * full-page shots at two widths and in two themes cost minutes of a run. No test compares them.
 */
export const SHOTS_WANTED = Boolean(process.env.E2E_SHOTS);

const SHOTS = SHOTS_WANTED ? path.join(ROOT, '.tmp', 'shots-journeys') : null;

/** page.screenshot(options), only when E2E_SHOTS is set. */
export async function screenshot(page: Page, options: PageScreenshotOptions): Promise<void> {
  if (SHOTS_WANTED) await page.screenshot(options);
}

/** Saves screenshots at 1280 and 375 px in both themes when E2E_SHOTS is set (for looking at, not for comparing). */
export async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  const before = page.viewportSize();
  for (const theme of THEMES) {
    await setTheme(page, theme);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: path.join(SHOTS, `${name}-${theme}-${width}.png`), fullPage: true });
    }
  }
  await setTheme(page, 'dark');
  if (before) await page.setViewportSize(before);
}
