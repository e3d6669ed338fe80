import path from 'node:path';
import type { Locator, Page, PageScreenshotOptions } from '@playwright/test';
import { setTheme, THEMES } from './a11y.ts';
import { ROOT } from './env.ts';

/**
 * Screenshots for looking at by hand are taken only when E2E_SHOTS is set: CI keeps none of the files, and
 * full-page shots at two widths and in two themes cost minutes of a run. No test compares them.
 */
export const SHOTS_WANTED = Boolean(process.env.E2E_SHOTS);

/** Where they go: E2E_SHOTS_DIR, or .tmp/shots-journeys. */
const SHOTS = SHOTS_WANTED ? (process.env.E2E_SHOTS_DIR ?? path.join(ROOT, '.tmp', 'shots-journeys')) : null;

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

/**
 * Like shot(), of one element only (a card on a long page), when E2E_SHOTS is set: at 1280 and 375 px in
 * both themes. The window is made taller than the element, so the sticky navigation bar covers none of it.
 */
export async function shotOf(target: Locator, name: string) {
  if (!SHOTS) return;
  const page = target.page();
  const before = page.viewportSize();
  for (const theme of THEMES) {
    await setTheme(page, theme);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      const box = await target.boundingBox();
      await page.setViewportSize({ width, height: Math.max(800, Math.ceil((box?.height ?? 0) + 200)) });
      await target.screenshot({ path: path.join(SHOTS, `${name}-${theme}-${width}.png`) });
    }
  }
  await setTheme(page, 'dark');
  if (before) await page.setViewportSize(before);
}
